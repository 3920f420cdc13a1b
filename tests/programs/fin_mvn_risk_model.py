# Factor risk model as a multivariate normal: covariance / precision / scale_tril parameterisations,
# LowRankMultivariateNormal (factor loadings + idiosyncratic variance), and a Gaussian MLE of the
# Cholesky factor with gradients of log_prob and KL divergences.
import torch
from torch.distributions import MultivariateNormal, LowRankMultivariateNormal, kl_divergence

torch.set_printoptions(precision=6)
dtype = torch.float64
n_assets = 3
loadings = torch.tensor([[1.0], [0.5], [0.2]], dtype=dtype)
idio = torch.tensor([0.04, 0.02, 0.03], dtype=dtype)
factor_model = LowRankMultivariateNormal(torch.zeros(n_assets, dtype=dtype), loadings * 0.2, idio)
print("factor cov", factor_model.covariance_matrix)
print("factor var", factor_model.variance)
print("factor entropy", factor_model.entropy())

precision = torch.tensor([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 3.0]], dtype=dtype)
from_prec = MultivariateNormal(torch.zeros(3, dtype=dtype), precision_matrix=precision)
L_prec = from_prec.scale_tril
print("scale_tril diag from precision", L_prec.diagonal())
print("lower triangular", torch.equal(L_prec, torch.tril(L_prec)))
print("L L^T = P^-1", torch.allclose(L_prec @ L_prec.T, torch.linalg.inv(precision)))
print("precision back", torch.allclose(from_prec.precision_matrix, precision))
print("cov from precision diag", from_prec.covariance_matrix.diagonal())

# MLE of a Cholesky factor on deterministic returns
t = torch.arange(200, dtype=dtype).unsqueeze(1)
k = torch.arange(n_assets, dtype=dtype)
returns = 0.02 * torch.sin(t * (0.7 + 0.3 * k) + k) + 0.01 * torch.sin(t * 0.31)
raw = torch.zeros(n_assets, n_assets, dtype=dtype, requires_grad=True)
mu = torch.zeros(n_assets, dtype=dtype, requires_grad=True)


def scale_tril(raw):
    off = torch.tril(raw, diagonal=-1)
    return off + torch.diag_embed(torch.exp(raw.diagonal() - 4.0))


opt = torch.optim.Adam([raw, mu], lr=0.05)
for step in range(40):
    dist = MultivariateNormal(mu, scale_tril=scale_tril(raw))
    nll = -dist.log_prob(returns).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"nll={nll.item():.5f}")
print("raw grad upper triangle is zero", bool((torch.triu(raw.grad, 1) == 0).all()))

# gradient of log_prob directly wrt a scale_tril leaf
L = torch.tensor([[0.1, 0.0, 0.0], [0.05, 0.2, 0.0], [0.01, 0.02, 0.15]], dtype=dtype, requires_grad=True)
lp = MultivariateNormal(torch.zeros(3, dtype=dtype), scale_tril=L).log_prob(returns[:10]).sum()
(gL,) = torch.autograd.grad(lp, L)
print("dlogp/dL", gL)

# KL between the fitted model and the factor model, with gradients
Lq = torch.tensor([[0.2, 0.0, 0.0], [0.03, 0.15, 0.0], [0.02, -0.04, 0.18]], dtype=dtype, requires_grad=True)
q = MultivariateNormal(torch.zeros(3, dtype=dtype), scale_tril=Lq)
kl = kl_divergence(MultivariateNormal(torch.zeros(3, dtype=dtype), scale_tril=L), q)
gL, gLq = torch.autograd.grad(kl, (L, Lq))
print("KL", f"{kl.item():.6f}")
print("dKL/dLq", gLq)
kl2 = kl_divergence(LowRankMultivariateNormal(torch.zeros(3, dtype=dtype), loadings * 0.2, idio),
                    MultivariateNormal(torch.zeros(3, dtype=dtype), scale_tril=Lq))
(g2,) = torch.autograd.grad(kl2, Lq)
print("KL lowrank||mvn", f"{kl2.item():.6f}")
print("dKL/dLq", g2)
