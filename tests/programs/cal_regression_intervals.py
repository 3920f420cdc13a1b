# Regression uncertainty: heteroscedastic Gaussian NLL (nn.GaussianNLLLoss), prediction intervals
# from Normal.icdf, interval coverage, Gaussian CRPS, pinball (quantile) loss and PIT histogram.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Laplace, StudentT

x = torch.linspace(-2, 2, 40).unsqueeze(1)
y = torch.sin(2 * x) + 0.2 * torch.cos(7 * x) * (x.abs() + 0.3)


class MeanVar(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 16), nn.Tanh())
        self.mu = nn.Linear(16, 1)
        self.logvar = nn.Linear(16, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h), F.softplus(self.logvar(h)) + 1e-3


net = MeanVar()
with torch.no_grad():
    for k, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + k).view_as(p) * 0.5)
crit = nn.GaussianNLLLoss()
opt = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(40):
    mu, var = net(x)
    loss = crit(mu, y, var)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} gaussian nll {loss.item():.4f}")

with torch.no_grad():
    mu, var = net(x)
    sigma = var.sqrt()
    dist = Normal(mu, sigma)
    for level in [0.5, 0.9]:
        lo = dist.icdf(torch.tensor((1 - level) / 2))
        hi = dist.icdf(torch.tensor((1 + level) / 2))
        cover = ((y >= lo) & (y <= hi)).float().mean()
        print(f"{int(level*100)}% interval coverage {cover.item():.3f} width {(hi - lo).mean().item():.3f}")
    z = (y - mu) / sigma
    crps = sigma * (z * (2 * Normal(0., 1.).cdf(z) - 1) + 2 * torch.exp(Normal(0., 1.).log_prob(z)) - 1 / math.sqrt(math.pi))
    print(f"CRPS {crps.mean().item():.4f}")
    pit = dist.cdf(y).squeeze(1)
    print("PIT histogram:", torch.histc(pit, bins=5, min=0, max=1).long().tolist())

print(F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.full((3,), 0.5), full=True))
print(F.gaussian_nll_loss(torch.zeros(2, 3), torch.ones(2, 3), torch.full((2, 1), 0.5), reduction="none"))
print(F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.tensor([1e-9, 1.0, 2.0]), eps=1e-2, reduction="sum"))
try:
    F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.tensor([-1.0, 1.0, 2.0]))
except ValueError as e:
    print(type(e).__name__, e)
print(F.poisson_nll_loss(torch.tensor([0.5, 1.0]), torch.tensor([1.0, 3.0]), log_input=True, full=True))


def pinball(pred, target, qs):
    diff = target.unsqueeze(-1) - pred
    return torch.maximum(qs * diff, (qs - 1) * diff).mean()


qs = torch.tensor([0.1, 0.5, 0.9])
pred_q = torch.stack([torch.full((5,), v) for v in [-0.5, 0.0, 0.5]], -1)
print(f"pinball {pinball(pred_q, torch.linspace(-1, 1, 5), qs).item():.4f}")
print(Laplace(torch.tensor(0.0), torch.tensor(1.0)).icdf(torch.tensor([0.05, 0.95])))
print(StudentT(torch.tensor(3.0)).log_prob(torch.tensor([0.0, 2.0])))
print(Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])).entropy())
