# Wang & Isola's alignment/uniformity losses on the hypersphere: (x - y).norm(p=2, dim=1).pow(alpha),
# torch.pdist(x, p=2).pow(2).mul(-t).exp().mean().log(), with gradients flowing into a shared encoder;
# plus a spectral contrastive loss with matrix products and an InfoNCE via logsumexp over masked sims.
import torch
import torch.nn as nn
import torch.nn.functional as F


def align_loss(x, y, alpha=2):
    return (x - y).norm(p=2, dim=1).pow(alpha).mean()


def uniform_loss(x, t=2):
    return torch.pdist(x, p=2).pow(2).mul(-t).exp().mean().log()


def spectral_loss(z1, z2):
    n = z1.shape[0]
    pos = -2.0 * (z1 * z2).sum(dim=1).mean()
    neg = ((z1 @ z2.T) ** 2).masked_select(~torch.eye(n, dtype=torch.bool)).mean()
    return pos + neg


def info_nce(z, temperature=0.5):
    n = z.shape[0] // 2
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    pos = torch.cat([torch.diag(sim, n), torch.diag(sim, -n)])
    return (-pos + torch.logsumexp(sim, dim=1)).mean()


encoder = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.55 - i).view_as(p) * 0.8)

x = torch.sin(torch.arange(6 * 5, dtype=torch.float32) * 0.4).view(6, 5)
x_aug = x + 0.1 * torch.cos(torch.arange(30, dtype=torch.float32)).view(6, 5)
opt = torch.optim.Adam(encoder.parameters(), lr=0.03)
for step in range(10):
    z1 = F.normalize(encoder(x), dim=-1)
    z2 = F.normalize(encoder(x_aug), dim=-1)
    la = align_loss(z1, z2)
    lu = (uniform_loss(z1) + uniform_loss(z2)) / 2
    loss = la + lu
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"align={la.item():.4f}", f"unif={lu.item():.4f}")

z1 = F.normalize(encoder(x), dim=-1)
z2 = F.normalize(encoder(x_aug), dim=-1)
print("pdist", torch.pdist(z1).shape, torch.pdist(z1, p=1).detach()[:4].round(decimals=4))
sl = spectral_loss(z1, z2)
nce = info_nce(torch.cat([z1, z2]))
print("spectral", f"{sl.item():.4f}", "info_nce", f"{nce.item():.4f}")
(sl + nce).backward()
print("grad last", encoder[2].weight.grad.round(decimals=4))
print("uniform grad_fn", uniform_loss(z1).grad_fn.name())
