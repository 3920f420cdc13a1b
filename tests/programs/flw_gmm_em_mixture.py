# Gaussian mixture model fitting as in GMM tutorials: EM with responsibilities from logsumexp,
# the same log-likelihood via MixtureSameFamily(Categorical, MultivariateNormal), then gradient
# fitting with unconstrained Cholesky factors (tril + softplus diagonal) and Adam.
import math
import torch
import torch.nn.functional as F
from torch.distributions import Categorical, MultivariateNormal, MixtureSameFamily, Independent, Normal

N, K, D = 90, 3, 2
t = torch.arange(N, dtype=torch.float32)
centers = torch.tensor([[-2.0, 0.0], [2.0, 1.0], [0.0, -2.5]])
X = centers[t.long() % K] + 0.5 * torch.stack([torch.sin(1.7 * t), torch.cos(2.3 * t)], 1)
print(X.shape, X.mean(0))


def log_gauss(X, mu, cov):
    diff = X.unsqueeze(1) - mu.unsqueeze(0)                       # N,K,D
    L = torch.linalg.cholesky(cov)                               # K,D,D
    sol = torch.linalg.solve_triangular(L.unsqueeze(0).expand(X.shape[0], -1, -1, -1), diff.unsqueeze(-1), upper=False)
    maha = (sol.squeeze(-1) ** 2).sum(-1)
    logdet = 2 * torch.log(torch.diagonal(L, dim1=-2, dim2=-1)).sum(-1)
    return -0.5 * (D * math.log(2 * math.pi) + logdet + maha)


mu = torch.tensor([[-1.0, 1.0], [1.0, 0.0], [0.5, -1.0]])
cov = torch.eye(D).repeat(K, 1, 1)
pi = torch.full((K,), 1.0 / K)
for it in range(8):
    log_r = torch.log(pi) + log_gauss(X, mu, cov)
    ll = torch.logsumexp(log_r, dim=1)
    r = torch.exp(log_r - ll.unsqueeze(1))
    Nk = r.sum(0)
    pi = Nk / N
    mu = (r.T @ X) / Nk.unsqueeze(1)
    diff = X.unsqueeze(1) - mu
    cov = torch.einsum("nk,nki,nkj->kij", r, diff, diff) / Nk.view(K, 1, 1) + 1e-4 * torch.eye(D)
    print(f"EM iter {it} mean loglik {ll.mean().item():.4f}")
print(pi.round(decimals=3))
print(mu.round(decimals=3))

gmm = MixtureSameFamily(Categorical(probs=pi), MultivariateNormal(mu, covariance_matrix=cov))
print(gmm)
print(gmm.batch_shape, gmm.event_shape, gmm.mixture_distribution.probs.shape)
print(f"{gmm.log_prob(X).mean().item():.4f}")
print(gmm.mean.round(decimals=4), gmm.variance.round(decimals=4))
post = gmm.component_distribution.log_prob(X.unsqueeze(1)) + torch.log(pi)
print(post.argmax(1)[:9], (post.argmax(1) == t.long() % K).float().mean())

logits = torch.zeros(K, requires_grad=True)
loc = torch.tensor([[-1.0, 1.0], [1.0, 0.0], [0.5, -1.0]], requires_grad=True)
raw = torch.zeros(K, D, D, requires_grad=True)
opt = torch.optim.Adam([logits, loc, raw], lr=0.05)
for step in range(40):
    tril = torch.tril(raw, diagonal=-1) + torch.diag_embed(F.softplus(torch.diagonal(raw, dim1=-2, dim2=-1)) + 1e-3)
    mix = MixtureSameFamily(Categorical(logits=logits), MultivariateNormal(loc, scale_tril=tril))
    loss = -mix.log_prob(X).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 39:
        print(f"step {step:2d} nll {loss.item():.4f}")
print(raw.grad.shape, torch.triu(raw.grad, 1).abs().sum().item())
print(F.softmax(logits, 0).detach().round(decimals=3))

diag = MixtureSameFamily(Categorical(logits=torch.zeros(K)), Independent(Normal(mu, torch.ones(K, D)), 1))
print(diag.log_prob(X[:4]), diag.cdf(X[:2]) if False else diag.component_distribution.batch_shape)
