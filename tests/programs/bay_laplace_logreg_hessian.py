# Laplace approximation of a small Bayesian logistic regression: MAP fit, Hessian of the
# negative log posterior with torch.autograd.functional.hessian, posterior covariance via
# linalg.inv / cholesky, predictive variance and the probit (MacKay) approximation.
import math
import torch
import torch.nn.functional as F
from torch.autograd.functional import hessian
from torch.distributions import MultivariateNormal

torch.set_default_dtype(torch.float64)
n = 40
t = torch.linspace(-2, 2, n)
X = torch.stack([torch.ones(n), t, torch.sin(3 * t)], dim=1)
y = (t + 0.5 * torch.cos(4 * t) > 0.1).double()
prior_prec = 1.0


def neg_log_post(w):
    logits = X @ w
    nll = F.binary_cross_entropy_with_logits(logits, y, reduction="sum")
    return nll + 0.5 * prior_prec * (w ** 2).sum()


w = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = neg_log_post(w)
    loss.backward()
    return loss


opt.step(closure)
w_map = w.detach().clone()
print("w_map", w_map.round(decimals=4))
print("loss at map", f"{neg_log_post(w_map).item():.5f}")

H = hessian(neg_log_post, w_map)
print("H", H.shape, H.dtype)
print(H.round(decimals=4))
p = torch.sigmoid(X @ w_map)
H_analytic = X.T @ torch.diag(p * (1 - p)) @ X + prior_prec * torch.eye(3)
print("analytic match", torch.allclose(H, H_analytic))
print("symmetric", torch.allclose(H, H.T))

Sigma = torch.linalg.inv(H)
L = torch.linalg.cholesky(H)
Sigma_chol = torch.cholesky_inverse(L)
print("inv vs cholesky_inverse", torch.allclose(Sigma, Sigma_chol))
print("Sigma", Sigma.round(decimals=5))
print("logdet", f"{torch.logdet(H).item():.5f}", f"{2 * L.diagonal().log().sum().item():.5f}")

# log marginal likelihood (Laplace evidence)
d = w_map.numel()
log_evidence = -neg_log_post(w_map) + 0.5 * d * math.log(2 * math.pi) - 0.5 * torch.logdet(H) \
    + 0.5 * d * math.log(prior_prec) - 0.5 * d * math.log(2 * math.pi)
print("log evidence", f"{log_evidence.item():.4f}")

xs = torch.stack([torch.ones(5), torch.linspace(-3, 3, 5), torch.zeros(5)], dim=1)
f_mu = xs @ w_map
f_var = torch.einsum("ni,ij,nj->n", xs, Sigma, xs)
f_var2 = (xs @ torch.cholesky_solve(xs.T, L)).diagonal()
print("f_var", f_var.round(decimals=5), torch.allclose(f_var, f_var2))
kappa = 1.0 / torch.sqrt(1.0 + math.pi * f_var / 8.0)
print("probit", torch.sigmoid(kappa * f_mu).round(decimals=4))
print("plugin", torch.sigmoid(f_mu).round(decimals=4))

post = MultivariateNormal(w_map, precision_matrix=H)
print("post cov", torch.allclose(post.covariance_matrix, Sigma))
print("post entropy", f"{post.entropy().item():.5f}")
print("log_prob map", f"{post.log_prob(w_map).item():.5f}")
print(post.scale_tril.round(decimals=4))

H2 = hessian(lambda a, b: neg_log_post(torch.cat([a, b])), (w_map[:1], w_map[1:]))
print(type(H2).__name__, len(H2), [tuple(h.shape) for row in H2 for h in row])
