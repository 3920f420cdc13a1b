# Low-rank-plus-diagonal Gaussian guides (as in Pyro's AutoLowRankMultivariateNormal, SWAG, and
# factor-analysis VAEs): LowRankMultivariateNormal log_prob/entropy/covariance vs the dense
# MultivariateNormal, KL between them, rsample from fixed eps, and an ELBO fitting a correlated target.
import torch
from torch.distributions import LowRankMultivariateNormal, MultivariateNormal, kl_divergence, Normal
from torch.distributions import Independent

torch.set_default_dtype(torch.float64)
d, r = 5, 2
loc = torch.linspace(-1, 1, d)
W = torch.stack([torch.sin(torch.arange(d) * 0.7 + k) for k in range(r)], 1)
diag = 0.5 + 0.1 * torch.arange(d)
lr = LowRankMultivariateNormal(loc, W, diag)
print(lr)
print(lr.batch_shape, lr.event_shape, lr.cov_factor.shape, lr.cov_diag.shape)
dense = MultivariateNormal(loc, W @ W.T + torch.diag(diag))
x = torch.stack([torch.cos(torch.arange(d) * 1.1 + k) for k in range(3)])
print(lr.log_prob(x))
print(dense.log_prob(x))
print(lr.entropy(), dense.entropy())
print(torch.allclose(lr.covariance_matrix, dense.covariance_matrix), torch.allclose(lr.precision_matrix, dense.precision_matrix))
print(lr.scale_tril.diagonal())
print(lr.variance, lr.mean, lr.mode)
print(kl_divergence(lr, dense).abs() < 1e-10, kl_divergence(dense, lr).abs() < 1e-10)
print(kl_divergence(lr, MultivariateNormal(torch.zeros(d), torch.eye(d))))
print(kl_divergence(lr, LowRankMultivariateNormal(torch.zeros(d), W * 0.5, torch.ones(d))))

batched = LowRankMultivariateNormal(torch.zeros(3, d), W.expand(3, d, r), diag.expand(3, d))
print(batched.batch_shape, batched.log_prob(x).shape, batched.rsample((2,)).shape)
print(batched[1:] if hasattr(batched, "__getitem__") else batched.expand((2, 3)).batch_shape)

target_cov = torch.full((d, d), 0.6) + 0.4 * torch.eye(d)
target = MultivariateNormal(torch.arange(d, dtype=torch.float64) * 0.2, target_cov)
mu = torch.zeros(d, requires_grad=True)
F_ = (0.1 * torch.ones(d, r)).requires_grad_()
log_d = torch.zeros(d, requires_grad=True)
S = 6
eps_w = torch.stack([torch.sin(torch.arange(r) * 2.0 + s) for s in range(S)])
eps_d = torch.stack([torch.cos(torch.arange(d) * 0.3 + s) for s in range(S)])
opt = torch.optim.Adam([mu, F_, log_d], lr=0.05)
for step in range(50):
    q = LowRankMultivariateNormal(mu, F_, log_d.exp())
    z = mu + eps_w @ F_.T + eps_d * log_d.exp().sqrt()
    elbo = (target.log_prob(z) - q.log_prob(z)).mean()
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    if step % 10 == 0 or step == 49:
        with torch.no_grad():
            kl = kl_divergence(LowRankMultivariateNormal(mu, F_, log_d.exp()), target)
        print(f"step {step:2d} elbo {elbo.item():.4f} kl {kl.item():.4f}")
print(log_d.grad.shape, F_.grad.shape)
try:
    LowRankMultivariateNormal(loc, W[:3], diag)
except ValueError as e:
    print(type(e).__name__, e)
try:
    LowRankMultivariateNormal(loc, W, -diag, validate_args=True)
except (ValueError, torch.linalg.LinAlgError) as e:
    print(type(e).__name__, str(e)[:90])
