# Self-adaptive PINN (McClenny & Braga-Neto, SA-PINN) for u_xx = f on [-1, 1]: per-collocation-point
# weights trained by gradient ASCENT with torch.optim.Adam(maximize=True) while the network
# descends, plus residual-based adaptive refinement (RAR) picking new points with torch.topk.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 12), nn.Tanh(), nn.Linear(12, 1))
        with torch.no_grad():
            for i, p in enumerate(self.body.parameters()):
                p.copy_(0.6 * torch.sin(0.77 * torch.arange(p.numel()) + 2.0 * i).view(p.shape))

    def forward(self, x):
        return self.body(x)


def source(x):
    return -(4 * math.pi) ** 2 * torch.sin(4 * math.pi * x) - 2.0


def residual(model, x):
    x = x.detach().requires_grad_(True)
    u = model(x)
    du, = torch.autograd.grad(u.sum(), x, create_graph=True)
    d2u, = torch.autograd.grad(du.sum(), x, create_graph=True)
    return d2u - source(x)


model = MLP()
x_col = torch.linspace(-1, 1, 21).unsqueeze(1)
x_bc = torch.tensor([[-1.0], [1.0]])
u_bc = -x_bc ** 2  # exact solution u = sin(4 pi x) - x^2

lam_r = nn.Parameter(torch.ones(len(x_col), 1))
lam_b = nn.Parameter(torch.full((2, 1), 10.0))
opt_net = torch.optim.Adam(model.parameters(), lr=5e-3)
opt_lam = torch.optim.Adam([lam_r, lam_b], lr=5e-2, maximize=True)
print(opt_lam.param_groups[0]["maximize"], opt_net.param_groups[0]["maximize"])

for it in range(30):
    opt_net.zero_grad()
    opt_lam.zero_grad()
    r = residual(model, x_col)
    loss_r = ((lam_r * r) ** 2).mean()
    loss_b = ((lam_b * (model(x_bc) - u_bc)) ** 2).mean()
    loss = loss_r + loss_b
    loss.backward()
    opt_net.step()
    opt_lam.step()
    if it % 10 == 0:
        print(f"it {it:2d} loss {loss.item():.2f} res {r.pow(2).mean().item():.2f} "
              f"lam_r[min,max]=({lam_r.min().item():.4f},{lam_r.max().item():.4f}) lam_b={lam_b.detach().view(-1)}")
print("weights only grew:", bool((lam_r.detach() >= 1.0).all()))

# residual-based adaptive refinement: evaluate on a dense set, add the worst points
x_dense = torch.linspace(-1, 1, 201).unsqueeze(1)
r_dense = residual(model, x_dense).detach().abs().squeeze(1)
vals, idx = torch.topk(r_dense, k=5)
print("worst residuals", vals.round(decimals=1))
print("at x =", x_dense[idx].view(-1))
x_new = torch.cat([x_col, x_dense[idx]]).unique(sorted=True).unsqueeze(1)
print("collocation grew", x_col.shape, "->", x_new.shape)
lam_new = torch.cat([lam_r.detach(), torch.ones(5, 1)])
print(lam_new.shape, lam_new.requires_grad)
order = torch.argsort(r_dense, descending=True)[:3]
print(order, torch.equal(order, idx[:3]))
print(sorted(opt_lam.state[lam_r].keys()), opt_lam.state[lam_r]["step"])
