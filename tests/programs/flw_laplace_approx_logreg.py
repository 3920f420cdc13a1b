# Laplace approximation for Bayesian logistic regression (as in "Bayesian deep learning"
# tutorials / laplace-torch's idea): MAP by Newton steps with autograd.functional.hessian,
# Gaussian posterior MultivariateNormal(w_map, precision_matrix=H), probit-approximated
# predictive, log marginal likelihood, and a per-example gradient check with torch.func.
import math
import torch
import torch.nn.functional as F
from torch.distributions import MultivariateNormal, Normal, Bernoulli, Independent
from torch.autograd.functional import hessian, jacobian

torch.set_default_dtype(torch.float64)
n = 40
t = torch.linspace(-2, 2, n)
X = torch.stack([torch.ones(n), t, torch.sin(3 * t)], 1)
y = ((1.5 * t - 0.5 * torch.sin(3 * t) + 0.4 * torch.cos(11 * t)) > 0).double()
prior = Independent(Normal(torch.zeros(3), 2.0 * torch.ones(3)), 1)


def neg_log_post(w):
    return -(Bernoulli(logits=X @ w).log_prob(y).sum() + prior.log_prob(w))


w = torch.zeros(3)
for it in range(8):
    g = jacobian(neg_log_post, w)
    H = hessian(neg_log_post, w)
    w = w - torch.linalg.solve(H, g)
    print(f"newton {it} loss {neg_log_post(w).item():.6f} |g| {g.norm().item():.2e}")
H = hessian(neg_log_post, w)
print(w.round(decimals=4))
print(torch.linalg.eigvalsh(H).round(decimals=3))
p = torch.sigmoid(X @ w)
H_manual = X.T @ torch.diag(p * (1 - p)) @ X + torch.eye(3) / 4.0
print(torch.allclose(H, H_manual))

post = MultivariateNormal(w, precision_matrix=H)
print(post.covariance_matrix.round(decimals=4))
print(post.stddev.round(decimals=4), post.entropy().round(decimals=4))
Xs = torch.tensor([[1.0, -1.0, 0.0], [1.0, 0.0, 0.5], [1.0, 1.5, -1.0]])
mu_f = Xs @ w
var_f = ((Xs @ post.covariance_matrix) * Xs).sum(-1)
kappa = 1 / torch.sqrt(1 + math.pi * var_f / 8)
print("MAP   ", torch.sigmoid(mu_f).round(decimals=4))
print("probit", torch.sigmoid(kappa * mu_f).round(decimals=4))
eps = torch.stack([torch.sin(torch.arange(3.0) * 1.7 + k) for k in range(200)]) * 1.3
L = post.scale_tril
mc = torch.sigmoid((w + eps @ L.T) @ Xs.T).mean(0)
print("mc    ", mc.round(decimals=2))
sign, logdet = torch.linalg.slogdet(H)
log_ml = -neg_log_post(w) + 0.5 * 3 * math.log(2 * math.pi) - 0.5 * logdet
print(f"log marginal likelihood {log_ml.item():.4f} sign {sign.item()}")

per_ex = torch.func.vmap(torch.func.grad(lambda w, x, t: F.binary_cross_entropy_with_logits(x @ w, t)), in_dims=(None, 0, 0))(w, X, y)
print(per_ex.shape, torch.allclose(per_ex.sum(0), ((p - y).unsqueeze(1) * X).sum(0)))
ggn = torch.einsum("ni,nj->ij", per_ex, per_ex)
print(torch.linalg.matrix_rank(ggn), torch.linalg.cond(H).round(decimals=2))

# Inertia check with an LDL^T factorization: at a saddle of a mixture log-density the Hessian is
# indefinite, so the Laplace approximation is invalid there (Bunch-Kaufman keeps it stable).
from torch.distributions import MixtureSameFamily, Categorical
mix = MixtureSameFamily(Categorical(torch.tensor([0.5, 0.5])),
                        MultivariateNormal(torch.tensor([[-1.0, 0.0], [1.0, 0.0]]), torch.eye(2) * 0.3))
for point in (torch.tensor([1.0, 0.0]), torch.tensor([0.0, 0.0])):
    Hm = hessian(lambda z: -mix.log_prob(z), point)
    LD, piv = torch.linalg.ldl_factor(Hm)
    print(point.tolist(), piv.tolist(), LD.diagonal().round(decimals=4), torch.linalg.eigvalsh(Hm).round(decimals=4))
LD, piv = torch.linalg.ldl_factor(H)
step = torch.linalg.ldl_solve(LD, piv, jacobian(neg_log_post, torch.zeros(3)).unsqueeze(1)).squeeze(1)
print(step.round(decimals=4), torch.allclose(H @ step, jacobian(neg_log_post, torch.zeros(3))))
