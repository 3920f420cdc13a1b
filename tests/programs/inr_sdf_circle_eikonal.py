# Fitting the signed distance of a circle with an MLP plus an eikonal loss
# (|grad_x f| - 1)^2, gradients of the net w.r.t. input coordinates via autograd.grad.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


def circle_sdf(p, center=(0.1, -0.2), r=0.5):
    c = torch.tensor(center)
    return (p - c).norm(dim=-1, keepdim=True) - r


class SDFNet(nn.Module):
    def __init__(self, hidden=24, depth=3):
        super().__init__()
        dims = [2] + [hidden] * depth + [1]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.act = nn.Softplus(beta=10)
        with torch.no_grad():
            for k, lin in enumerate(self.layers):
                t = torch.arange(lin.weight.numel()).reshape(lin.weight.shape)
                lin.weight.copy_(torch.sin(0.9 * t + k) * (2.0 / lin.in_features) ** 0.5)
                lin.bias.copy_(0.05 * torch.cos(torch.arange(lin.out_features) + k))

    def forward(self, x):
        for lin in self.layers[:-1]:
            x = self.act(lin(x))
        return self.layers[-1](x)


def gradient(y, x):
    return torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]


n = 9
lin = torch.linspace(-1, 1, n)
gi, gj = torch.meshgrid(lin, lin, indexing="ij")
pts = torch.stack((gi, gj), dim=-1).reshape(-1, 2)
target = circle_sdf(pts)
print("points", pts.shape, "inside:", int((target < 0).sum()))

net = SDFNet()
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
for step in range(25):
    x = pts.clone().requires_grad_(True)
    f = net(x)
    g = gradient(f, x)
    eik = ((g.norm(dim=-1) - 1) ** 2).mean()
    fit = (f - target).abs().mean()
    loss = fit + 0.1 * eik
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        print(f"step {step:2d} fit {fit.item():.4f} eikonal {eik.item():.4f} total {loss.item():.4f}")

x = torch.tensor([[0.1, -0.2], [0.6, -0.2], [1.0, 1.0]], requires_grad=True)
f = net(x)
normals = gradient(f, x)
print("sdf", f.detach().squeeze(-1).round(decimals=3))
print("normals", torch.nn.functional.normalize(normals.detach(), dim=-1).round(decimals=3))
print("grad_fn of normals:", type(normals.grad_fn).__name__, normals.requires_grad)
