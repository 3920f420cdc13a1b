# Non-contrastive self-supervised losses as their reference repos write them: SimSiam/BYOL negative cosine
# with stop-gradient (detach) and an EMA target network, Barlow Twins' cross-correlation with
# BatchNorm1d(affine=False) and the off_diagonal flatten/view trick, and VICReg's variance/covariance terms.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def D(p, z):
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()


def byol_loss(x, y):
    x = F.normalize(x, dim=-1, p=2)
    y = F.normalize(y, dim=-1, p=2)
    return 2 - 2 * (x * y).sum(dim=-1)


def off_diagonal(x):
    n, m = x.shape
    assert n == m
    return x.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


def init(module, seed):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i + seed).view(p.shape) * 0.5)


backbone = nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 4))
predictor = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 4))
init(backbone, 0)
init(predictor, 1)
x = torch.cos(torch.arange(40, dtype=torch.float32).view(8, 5) * 0.45)
x1, x2 = x * 0.9 + 0.1, x.roll(1, dims=1)

# SimSiam
z1, z2 = backbone(x1), backbone(x2)
p1, p2 = predictor(z1), predictor(z2)
L = D(p1, z2) / 2 + D(p2, z1) / 2
print("simsiam", f"{L.item():.4f}", L.grad_fn.name())
L.backward()
print(backbone[0].weight.grad.shape, f"{backbone[3].bias.grad.abs().sum().item():.4f}")
print(predictor[1].running_mean, predictor[1].num_batches_tracked)

# BYOL with an EMA target
target = copy.deepcopy(backbone)
for p in target.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(list(backbone.parameters()) + list(predictor.parameters()), lr=0.05, momentum=0.9)
opt.zero_grad()
tau = 0.9
for step in range(8):
    online = predictor(backbone(x1))
    with torch.no_grad():
        tgt = target(x2)
    loss = byol_loss(online, tgt).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for po, pt in zip(backbone.parameters(), target.parameters()):
            pt.mul_(tau).add_(po, alpha=1 - tau)
    if step % 2 == 0:
        print("byol", step, f"{loss.item():.4f}")
print([p.grad is None for p in target.parameters()][:2], target[1].num_batches_tracked)

# Barlow Twins
bn = nn.BatchNorm1d(4, affine=False)
print(bn, list(bn.state_dict().keys()))
z1, z2 = backbone(x1), backbone(x2)
c = bn(z1).T @ bn(z2)
c.div_(x.shape[0])
on_diag = torch.diagonal(c).add_(-1).pow_(2).sum()
off_diag = off_diagonal(c).pow_(2).sum()
bt = on_diag + 0.0051 * off_diag
# (three digits: the BYOL steps above leave float32 noise of about 1e-4 in these sums)
print("barlow", f"{on_diag.item():.3f}", f"{off_diag.item():.3f}", f"{bt.item():.3f}", bt.grad_fn.name())
print(off_diagonal(torch.arange(16.0).view(4, 4)))

# VICReg
repr_loss = F.mse_loss(z1, z2)
za = z1 - z1.mean(dim=0)
zb = z2 - z2.mean(dim=0)
std_x = torch.sqrt(za.var(dim=0) + 0.0001)
std_y = torch.sqrt(zb.var(dim=0) + 0.0001)
std_loss = torch.mean(F.relu(1 - std_x)) / 2 + torch.mean(F.relu(1 - std_y)) / 2
cov_x = (za.T @ za) / (x.shape[0] - 1)
cov_y = (zb.T @ zb) / (x.shape[0] - 1)
cov_loss = off_diagonal(cov_x).pow_(2).sum().div(4) + off_diagonal(cov_y).pow_(2).sum().div(4)
vic = 25.0 * repr_loss + 25.0 * std_loss + 1.0 * cov_loss
print("vicreg", f"{repr_loss.item():.4f}", f"{std_loss.item():.4f}", f"{cov_loss.item():.4f}", f"{vic.item():.3f}")
vic.backward()
print(f"{backbone[0].weight.grad.norm().item():.3f}")
