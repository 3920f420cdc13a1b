# Full-covariance Gaussian latent posterior (as in structured VAEs / Bayesian GMMs): an encoder
# outputs unconstrained vectors mapped by CorrCholeskyTransform to correlation Cholesky factors,
# scaled into a MultivariateNormal scale_tril; LKJCholesky prior on correlations, Wishart prior
# on a precision matrix, and their log-densities in the loss.
import torch
import torch.nn as nn
from torch.distributions import (MultivariateNormal, LKJCholesky, Wishart, Independent, Normal,
                                 constraints, biject_to, kl_divergence)
from torch.distributions.transforms import CorrCholeskyTransform

z_dim = 3
n_corr = z_dim * (z_dim - 1) // 2
encoder = nn.Linear(6, z_dim + z_dim + n_corr)
with torch.no_grad():
    encoder.weight.copy_(0.3 * torch.sin(torch.arange(encoder.weight.numel(), dtype=torch.float32)).view_as(encoder.weight))
    encoder.bias.copy_(0.1 * torch.cos(torch.arange(encoder.bias.numel(), dtype=torch.float32)))

to_corr = biject_to(constraints.corr_cholesky)
print(to_corr, isinstance(to_corr, CorrCholeskyTransform), constraints.corr_cholesky)
x = torch.cos(torch.arange(4 * 6, dtype=torch.float32).view(4, 6) * 0.45)
lkj = LKJCholesky(z_dim, concentration=2.0)
print(lkj, lkj.batch_shape, lkj.event_shape, lkj.support)
prior = MultivariateNormal(torch.zeros(z_dim), torch.eye(z_dim))
eps = torch.sin(torch.arange(4 * z_dim, dtype=torch.float32).view(4, z_dim) * 1.9)

opt = torch.optim.Adam(encoder.parameters(), lr=1e-2)
for step in range(25):
    mu, log_sd, raw = encoder(x).split([z_dim, z_dim, n_corr], dim=-1)
    corr_tril = to_corr(raw)
    scale_tril = log_sd.exp().unsqueeze(-1) * corr_tril
    q = MultivariateNormal(mu, scale_tril=scale_tril)
    z = mu + (scale_tril @ eps.unsqueeze(-1)).squeeze(-1)
    recon = -((z.sum(-1) - x.mean(-1)) ** 2)
    loss = -(recon - kl_divergence(q, prior) + lkj.log_prob(corr_tril)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 24:
        print(f"step {step:2d} loss {loss.item():.4f}")

print(corr_tril.shape, q.batch_shape, q.event_shape)
print(torch.allclose((corr_tril ** 2).sum(-1), torch.ones(4, z_dim)))
corr = corr_tril[0] @ corr_tril[0].T
print(corr.diagonal().round(decimals=4))
print(to_corr.inv(corr_tril)[:2])
print(to_corr.log_abs_det_jacobian(raw, corr_tril))
print(lkj.log_prob(torch.eye(z_dim)), LKJCholesky(z_dim, 0.5).log_prob(torch.eye(z_dim)))
print(lkj.sample((5,)).shape, constraints.corr_cholesky.check(lkj.sample((2,))))

# Wishart prior over a precision matrix (Bayesian Gaussian mixture / NIW-style)
w = Wishart(df=torch.tensor(5.0), covariance_matrix=torch.eye(z_dim) * 0.5)
print(w)
print(w.mean)
print(w.variance.diagonal())
precision = q.precision_matrix[0]
print(f"{w.log_prob(precision).item():.4f}", f"{w.entropy().item():.4f}")
print(w.sample((2,)).shape, w.batch_shape, w.event_shape)
print(Wishart(torch.tensor([4.0, 6.0]), scale_tril=torch.eye(2)).mode)
try:
    Wishart(df=torch.tensor(1.0), covariance_matrix=torch.eye(z_dim))
except ValueError as e:
    print("ValueError", e)
try:
    LKJCholesky(1)
except ValueError as e:
    print("ValueError", e)
try:
    lkj.log_prob(2 * torch.eye(z_dim))
except ValueError as e:
    print("ValueError", e)
