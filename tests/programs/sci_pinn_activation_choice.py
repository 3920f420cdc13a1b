# "Why is u_xx zero / why does my PINN not train with ReLU?" -- the classic PINN question.
# The same small network with different activations; the first and second derivatives of the
# output w.r.t. the input via torch.autograd.grad(..., create_graph=True), the heat-equation
# residual u_t - k u_xx on a (t, x) grid, and what the second derivative looks like for
# piecewise-linear activations (identically zero, but still part of the graph).
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)


def make_net(act):
    net = nn.Sequential(nn.Linear(1, 4), act, nn.Linear(4, 1))
    with torch.no_grad():
        net[0].weight.copy_(torch.tensor([[1.0], [-2.0], [0.5], [1.5]]))
        net[0].bias.copy_(torch.tensor([0.1, 0.2, -0.3, 0.05]))
        net[2].weight.copy_(torch.tensor([[1.0, 0.5, -1.0, 0.25]]))
        net[2].bias.fill_(0.1)
    return net


x = torch.linspace(-1, 1, 5).unsqueeze(1).requires_grad_(True)
for act in [nn.Tanh(), nn.Sigmoid(), nn.Softplus(beta=2.0), nn.SiLU(), nn.GELU(), nn.ELU(), nn.ReLU(),
            nn.LeakyReLU(0.1), nn.ReLU6(), nn.Hardtanh(-0.5, 0.5)]:
    net = make_net(act)
    u = net(x)
    u_x, = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)
    print(f"{act!r:32s} u_x requires_grad={u_x.requires_grad}")
    u_xx, = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)
    print("   u_x ", u_x.detach().squeeze())
    print("   u_xx", u_xx.detach().squeeze(), u_xx.requires_grad)

# The same for an input-only function (no parameters in between)
z = torch.tensor([-1.5, 0.3, 2.0], requires_grad=True)
for name, f in [("leaky_relu", nn.functional.leaky_relu), ("hardtanh", nn.functional.hardtanh),
                ("relu6", nn.functional.relu6), ("threshold", lambda t: nn.functional.threshold(t, 0.5, 0.0)),
                ("softplus", nn.functional.softplus), ("elu", nn.functional.elu),
                ("mse_loss", lambda t: nn.functional.mse_loss(t, torch.zeros(3)))]:
    g, = torch.autograd.grad(f(z).sum(), z, create_graph=True)
    print(name, g, g.requires_grad)
    h, = torch.autograd.grad(g.sum(), z)
    print("   second", h)

# heat equation residual u_t - k u_xx on a (t, x) grid with a tanh network
net2 = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))
with torch.no_grad():
    for i, p in enumerate(net2.parameters()):
        p.copy_(0.6 * torch.sin(torch.arange(p.numel()) * 1.3 + i).reshape(p.shape))
t, xx = torch.meshgrid(torch.linspace(0, 1, 3), torch.linspace(-1, 1, 4), indexing="ij")
tx = torch.stack([t.reshape(-1), xx.reshape(-1)], dim=1).requires_grad_(True)
u = net2(tx)
du, = torch.autograd.grad(u, tx, torch.ones_like(u), create_graph=True)
u_t, u_x = du[:, 0:1], du[:, 1:2]
d2u, = torch.autograd.grad(u_x, tx, torch.ones_like(u_x), create_graph=True)
u_xx = d2u[:, 1:2]
res = u_t - 0.1 * u_xx
print(tx.shape, du.shape, res.shape, res.grad_fn.name())
print(res.squeeze().detach())
loss = res.pow(2).mean()
loss.backward()
print(f"{loss.item():.6f}", net2[0].weight.grad[:2])
