# Variational Bayesian linear regression (as in VI tutorials): exact Gaussian posterior via
# cholesky / cholesky_solve, a full-covariance MultivariateNormal guide trained on the ELBO with
# a fixed eps (reparameterization via scale_tril), and KL(q||p) between MVNs checked by hand.
import math
import torch
from torch.distributions import MultivariateNormal, Normal, kl_divergence, Independent

torch.set_default_dtype(torch.float64)
n, d = 30, 3
x = torch.linspace(-1, 1, n)
Phi = torch.stack([torch.ones(n), x, x ** 2], 1)
w_true = torch.tensor([0.5, -1.0, 2.0])
y = Phi @ w_true + 0.1 * torch.sin(13 * x)
alpha, beta = 1.0, 25.0

A = alpha * torch.eye(d) + beta * Phi.T @ Phi
L = torch.linalg.cholesky(A)
m_post = beta * torch.cholesky_solve((Phi.T @ y).unsqueeze(1), L).squeeze(1)
S_post = torch.cholesky_inverse(L)
print(m_post)
print(S_post)
print(torch.allclose(S_post, torch.linalg.inv(A)), torch.allclose(m_post, torch.linalg.solve(A, beta * Phi.T @ y)))
post = MultivariateNormal(m_post, precision_matrix=A)
print(post.scale_tril)
print(post.entropy(), post.log_prob(w_true))

prior = MultivariateNormal(torch.zeros(d), torch.eye(d) / alpha)
sign, logdet = torch.linalg.slogdet(A)
log_ev = 0.5 * d * math.log(alpha) + 0.5 * n * math.log(beta) - 0.5 * logdet - 0.5 * n * math.log(2 * math.pi) \
    - 0.5 * beta * ((y - Phi @ m_post) ** 2).sum() - 0.5 * alpha * m_post @ m_post
print(f"log evidence {log_ev.item():.4f}")

q_loc = torch.zeros(d, requires_grad=True)
q_raw = torch.zeros(d, d, requires_grad=True)
S = 8
eps = torch.stack([torch.sin(torch.arange(d) * 1.3 + s) for s in range(S)]) * 1.2


def guide():
    tril = torch.tril(q_raw, -1) + torch.diag(torch.exp(torch.diagonal(q_raw)) * 0.3)
    return MultivariateNormal(q_loc, scale_tril=tril)


opt = torch.optim.Adam([q_loc, q_raw], lr=0.05)
for step in range(60):
    q = guide()
    w = q.loc + eps @ q.scale_tril.T
    loglik = Independent(Normal(w @ Phi.T, beta ** -0.5), 1).log_prob(y.expand(S, n))
    elbo = loglik.mean() - kl_divergence(q, prior)
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    if step % 10 == 0 or step == 59:
        print(f"step {step:2d} elbo {elbo.item():.3f}")
q = guide()
print(q.loc.detach().round(decimals=2))
kl = kl_divergence(q, post)
Sq = q.covariance_matrix
manual = 0.5 * (torch.trace(A @ Sq) + (m_post - q.loc) @ A @ (m_post - q.loc) - d
                + torch.logdet(S_post) - torch.logdet(Sq))
print(f"{kl.item():.4f} {manual.item():.4f}")
print(q.rsample((4,)).shape, q.variance.shape, q.precision_matrix.shape)
