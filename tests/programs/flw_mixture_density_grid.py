# 2-D Gaussian mixture densities evaluated on a grid (as in density-estimation tutorials that
# plot contours): MixtureSameFamily with Independent Normal and full-covariance components,
# meshgrid evaluation, normalisation check by Riemann sum, responsibilities and marginals.
import math
import torch
import torch.nn.functional as F
from torch.distributions import (Categorical, Independent, Normal, MultivariateNormal,
                                 MixtureSameFamily)

logits = torch.tensor([0.0, 0.5, -0.5])
locs = torch.tensor([[-1.5, 0.0], [1.0, 1.0], [0.5, -1.5]])
scales = torch.tensor([[0.5, 0.8], [0.6, 0.4], [0.3, 0.7]])
diag_mix = MixtureSameFamily(Categorical(logits=logits), Independent(Normal(locs, scales), 1))
covs = torch.diag_embed(scales ** 2)
covs[:, 0, 1] = covs[:, 1, 0] = torch.tensor([0.1, -0.05, 0.02])
full_mix = MixtureSameFamily(Categorical(logits=logits), MultivariateNormal(locs, covariance_matrix=covs))
print(diag_mix.batch_shape, diag_mix.event_shape, full_mix.component_distribution.batch_shape)

xs = torch.linspace(-4, 4, 81)
gx, gy = torch.meshgrid(xs, xs, indexing="ij")
grid = torch.stack([gx, gy], -1)
print(grid.shape)
for name, mix in [("diag", diag_mix), ("full", full_mix)]:
    logp = mix.log_prob(grid)
    area = (xs[1] - xs[0]) ** 2
    print(name, logp.shape, f"{(logp.exp().sum() * area).item():.4f}", f"{logp.max().item():.4f}")
    idx = torch.argmax(logp)
    print("  mode near", grid.reshape(-1, 2)[idx], divmod(idx.item(), 81))

pts = torch.tensor([[-1.5, 0.0], [1.0, 1.0], [0.0, 0.0], [3.0, -3.0]])
comp_lp = diag_mix.component_distribution.log_prob(pts.unsqueeze(-2))
log_w = F.log_softmax(logits, -1)
resp = torch.softmax(comp_lp + log_w, dim=-1)
print(comp_lp.shape, resp.round(decimals=4))
print(torch.allclose(torch.logsumexp(comp_lp + log_w, -1), diag_mix.log_prob(pts)))
print(diag_mix.mean, diag_mix.variance)

marg_x = MixtureSameFamily(Categorical(logits=logits), Normal(locs[:, 0], scales[:, 0]))
print(marg_x.log_prob(torch.tensor([-1.5, 0.0, 1.0])))
print(marg_x.cdf(torch.tensor([-1.5, 0.0, 1.0])))
lo, hi = torch.full((3,), -6.0), torch.full((3,), 6.0)
target = torch.tensor([0.1, 0.5, 0.9])
for _ in range(40):
    mid = (lo + hi) / 2
    below = marg_x.cdf(mid) < target
    lo, hi = torch.where(below, mid, lo), torch.where(below, hi, mid)
print("quantiles", ((lo + hi) / 2).round(decimals=3))
ent_grid = -(diag_mix.log_prob(grid).exp() * diag_mix.log_prob(grid)).sum() * (xs[1] - xs[0]) ** 2
print(f"entropy (grid) {ent_grid.item():.4f}")
