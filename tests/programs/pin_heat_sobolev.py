# Sobolev training for the 1-D heat kernel: fit u(x,t) and match its spatial gradient u_x
# (from the exact solution) with create_graph=True so the gradient loss trains the weights;
# then check the heat residual u_t - alpha * u_xx with a second-derivative pass.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
alpha = 0.1


def exact(x, t):
    return torch.exp(-alpha * torch.pi ** 2 * t) * torch.sin(torch.pi * x)


def exact_x(x, t):
    return torch.pi * torch.exp(-alpha * torch.pi ** 2 * t) * torch.cos(torch.pi * x)


net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        j = torch.arange(p.numel(), dtype=torch.float64)
        p.copy_((torch.sin(0.9 * j + i) * 0.6 / (1 + i)).reshape(p.shape))

x = torch.linspace(0, 1, 11)
t = torch.linspace(0, 0.5, 6)
xx, tt = torch.meshgrid(x, t, indexing="xy")
pts = torch.stack([xx.flatten(), tt.flatten()], dim=1)
u_true = exact(pts[:, 0], pts[:, 1]).unsqueeze(1)
ux_true = exact_x(pts[:, 0], pts[:, 1]).unsqueeze(1)
print("grid:", tuple(xx.shape), "points:", tuple(pts.shape))


def sobolev_loss(weight):
    p = pts.clone().requires_grad_(True)
    u = net(p)
    du = torch.autograd.grad(u, p, torch.ones_like(u), create_graph=True)[0]
    l_val = nn.functional.mse_loss(u, u_true)
    l_grad = nn.functional.mse_loss(du[:, :1], ux_true)
    return l_val, l_grad, l_val + weight * l_grad


opt = torch.optim.Adam(net.parameters(), lr=0.01)
history = []
for step in range(40):
    opt.zero_grad()
    lv, lg, loss = sobolev_loss(0.1)
    loss.backward()
    opt.step()
    history.append(loss.item())
    if step % 10 == 0:
        print(f"step {step:2d} value {lv.item():.4f} grad {lg.item():.4f}")
print("loss decreased:", history[-1] < history[0])

# heat residual via second derivatives computed column by column
p = pts.clone().requires_grad_(True)
u = net(p)
grads = torch.autograd.grad(u.sum(), p, create_graph=True)[0]
u_x, u_t = grads[:, 0], grads[:, 1]
u_xx = torch.autograd.grad(u_x.sum(), p, create_graph=True)[0][:, 0]
res = u_t - alpha * u_xx
print(f"heat residual rms: {res.pow(2).mean().sqrt().item():.3f}")
print("residual grad_fn:", type(res.grad_fn).__name__)

# gradient of the residual w.r.t. parameters (third-order graph) exists
g = torch.autograd.grad(res.pow(2).mean(), list(net.parameters()), allow_unused=True)
print("param grads shapes:", [None if x is None else tuple(x.shape) for x in g])
print("last bias unused (no 2nd derivative dependence):", g[-1] is None)
