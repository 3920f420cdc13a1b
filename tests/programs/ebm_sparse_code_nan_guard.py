# Sparse-coding energy E(x, z) = 0.5|x - Dz|^2 + lam|z|_1 minimised by ISTA (softshrink proximal
# steps), a Mish/Hardtanh amortised encoder trained on it, and a NaN guard in the training step:
# corrupted inputs give NaN energies, users inspect the gradients with isnan and nan_to_num them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)

D = torch.cos(torch.arange(12.0).view(4, 3) * 0.9) * 0.8
x = torch.stack([torch.sin(torch.arange(4.0) * k + 0.3) for k in range(1, 6)])
lam = 0.1


def energy(x, z):
    return 0.5 * (x - z @ D.T).pow(2).sum(-1) + lam * z.abs().sum(-1)


step = 1.0 / torch.linalg.matrix_norm(D, ord=2).item() ** 2
z = torch.zeros(5, 3)
for it in range(30):
    grad = (z @ D.T - x) @ D
    z = F.softshrink(z - step * grad, lam * step)
    if it % 10 == 9:
        print(it, f"{energy(x, z).mean().item():.5f}", (z == 0).sum().item())
print(z)
print(F.softshrink(torch.tensor([-0.3, -0.05, 0.0, 0.05, 0.3]), 0.1))
print(F.hardshrink(torch.tensor([-0.3, -0.05, 0.0, 0.05, 0.3]), 0.1))

encoder = nn.Sequential(nn.Linear(4, 8), nn.Mish(), nn.Linear(8, 3), nn.Hardtanh(-2.0, 2.0))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.17 + i).view_as(p))
opt = torch.optim.Adam(encoder.parameters(), lr=0.02)
for it in range(20):
    zp = encoder(x)
    loss = energy(x, zp).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(it, f"amortised energy {loss.item():.4f}")

# a corrupted batch: NaN inputs through Softshrink / Hardtanh / Mish
bad = x.clone()
bad[1, 2] = float("nan")
bad.requires_grad_(True)
h = F.softshrink(bad, 0.2) + F.hardtanh(bad) + F.elu(bad) + F.hardshrink(bad, 0.2)
print(h[1])
e = energy(h, encoder(bad.detach().nan_to_num(0.0)))
print(torch.isfinite(e))
e.sum().backward()
print(bad.grad.isnan().sum().item(), bad.grad[1])
clean = torch.nan_to_num(bad.grad, nan=0.0)
print(clean[1], torch.isfinite(clean).all().item())

# curvature of the Mish encoder at its kink-free origin (score-matching style second derivative)
t = torch.tensor([-1.0, 0.0, 1.0], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(F.mish(t).sum(), t, create_graph=True)
(hh,) = torch.autograd.grad(g.sum(), t)
print(g.detach(), hh)
