# Contrastive divergence with a spectral-norm regulariser: largest singular value of each weight by
# power iteration (and torch.linalg.matrix_norm(ord=2) as the check), energy-magnitude penalty,
# Adam with betas=(0., 0.999), and torch.no_grad() short-run sampling from a fixed start.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 12)
        self.fc2 = nn.Linear(12, 12)
        self.fc3 = nn.Linear(12, 1)
        self.act = nn.Softplus(beta=3.0)

    def forward(self, x):
        return self.fc3(self.act(self.fc2(self.act(self.fc1(x))))).squeeze(-1)


def power_iteration(w, u, iters=5):
    for _ in range(iters):
        v = F.normalize(w.t() @ u, dim=0)
        u = F.normalize(w @ v, dim=0)
    return (u @ w @ v), u


torch.set_printoptions(precision=4)
model = Energy()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p))
us = {n: F.normalize(torch.cos(torch.arange(p.shape[0], dtype=torch.float32) + 1.0), dim=0)
      for n, p in model.named_parameters() if p.dim() == 2}

t = torch.linspace(0, 6.28, 16)
pos = torch.stack([torch.cos(t), torch.sin(t)], 1) * torch.linspace(0.5, 1.5, 16).unsqueeze(1)
start = torch.stack([torch.linspace(-2, 2, 16), torch.linspace(2, -2, 16).flip(0) * 0.3], 1)


def sample(model, x, steps=10, step=0.05):
    x = x.clone()
    for k in range(steps):
        x.requires_grad_(True)
        with torch.enable_grad():
            g = torch.autograd.grad(model(x).sum(), x)[0]
        with torch.no_grad():
            x = x - step * g + 0.003 * torch.sin(torch.arange(x.numel(), dtype=x.dtype).view_as(x) + k)
            x = x.clamp(-3, 3)
    return x.detach()


opt = torch.optim.Adam(model.parameters(), lr=5e-3, betas=(0.0, 0.999))
for it in range(10):
    with torch.no_grad():
        neg = sample(model, start)
    e_pos, e_neg = model(pos), model(neg)
    cd = e_pos.mean() - e_neg.mean()
    reg = (e_pos ** 2).mean() + (e_neg ** 2).mean()
    sn = 0.0
    for name, p in model.named_parameters():
        if p.dim() == 2:
            sigma, u = power_iteration(p, us[name])
            us[name] = u.detach()
            sn = sn + sigma
    loss = cd + 0.1 * reg + 0.01 * sn
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"cd={cd.item():.4f} reg={reg.item():.4f} sn={float(sn):.4f}", neg.requires_grad)

with torch.no_grad():
    for name, p in model.named_parameters():
        if p.dim() == 2:
            exact = torch.linalg.matrix_norm(p, ord=2)
            est, _ = power_iteration(p, us[name], iters=50)
            print(name, f"{exact.item():.4f} {est.item():.4f}", torch.linalg.svdvals(p)[:2])
    print(model(pos)[:4], model(sample(model, start))[:4])
