# Score matching (Hyvarinen 2005) for a tiny score network: the loss needs tr(d s/d x) per example,
# computed exactly with vmap(jacrev(score)) and by Hutchinson with fixed probe vectors through
# torch.func.vjp; gradients flow back into nn.Module parameters (no functional_call) for training.
import torch
import torch.nn as nn
from torch.func import jacfwd, jacrev, vjp, vmap

torch.set_default_dtype(torch.float64)

net = nn.Sequential(nn.Linear(2, 16), nn.Softplus(), nn.Linear(16, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.83 + 2 * i).view_as(p))

theta = torch.linspace(0, 2 * torch.pi, 33)[:-1]
data = torch.stack([1.5 * torch.cos(theta), 0.5 * torch.sin(theta)], 1) + 0.1 * torch.sin(5 * theta)[:, None]


def exact_loss(x):
    s = net(x)
    jac = vmap(jacrev(net))(x)  # (N, 2, 2)
    trace = jac.diagonal(dim1=-2, dim2=-1).sum(-1)
    return (0.5 * (s ** 2).sum(-1) + trace).mean()


probes = torch.stack([torch.tensor([1.0, -1.0]), torch.tensor([-1.0, -1.0]), torch.tensor([1.0, 1.0])])


def hutchinson_loss(x):
    s, vjp_fn = vjp(net, x)
    est = 0.0
    for v in probes:
        (vj,) = vjp_fn(v.expand_as(x))
        est = est + (vj * v).sum(-1)
    return (0.5 * (s ** 2).sum(-1) + est / len(probes)).mean()


print("exact loss", f"{exact_loss(data).item():.6f}", "hutchinson", f"{hutchinson_loss(data).item():.6f}")
J1 = vmap(jacrev(net))(data[:3])
J2 = vmap(jacfwd(net))(data[:3])
print("jacrev == jacfwd per example:", torch.allclose(J1, J2), tuple(J1.shape))

opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(25):
    opt.zero_grad()
    loss = exact_loss(data)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        gnorm = torch.sqrt(sum((p.grad ** 2).sum() for p in net.parameters()))
        print(f"step {step:2d} loss {loss.item():+.6f} grad-norm {gnorm.item():.6f}")

net.zero_grad()
hutchinson_loss(data).backward()
print("hutchinson grads reach parameters:", all(p.grad is not None for p in net.parameters()))
print("first-layer weight grad\n", net[0].weight.grad[:3])

with torch.no_grad():
    probe_points = torch.tensor([[0.0, 0.0], [1.5, 0.0], [0.0, 0.5]])
    print("scores at probe points\n", net(probe_points))
