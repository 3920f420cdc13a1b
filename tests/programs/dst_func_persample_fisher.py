# Per-sample score functions and Fisher information of distribution log-likelihoods with
# torch.func (vmap over grad, jacrev, hessian), as in Laplace-approximation / natural-gradient code.
import torch
import torch.distributions as D
from torch.func import vmap, grad, jacrev, hessian

torch.set_printoptions(precision=4, sci_mode=False)
x = torch.linspace(-1.0, 2.0, 6)


def gauss_nll(theta, xi):
    return -D.Normal(theta[0], theta[1].exp()).log_prob(xi)


theta = torch.tensor([0.3, -0.2])
scores = vmap(grad(gauss_nll), in_dims=(None, 0))(theta, x)
print("scores\n", scores)
print("empirical Fisher\n", scores.T @ scores / len(x))
print("observed Fisher\n", hessian(lambda t: gauss_nll(t, x).mean())(theta))

# categorical policy: per-state score of the taken action
L = torch.stack([torch.linspace(-1, 1, 4) * (k + 0.5) for k in range(3)])
acts = torch.tensor([0, 3, 2])
print(vmap(grad(lambda l, a: D.Categorical(logits=l).log_prob(a)))(L, acts))
print(vmap(lambda l: D.Categorical(logits=l).entropy())(L))
print(jacrev(lambda l: D.Categorical(logits=l).probs)(L[1]))

# Gamma / Beta / Dirichlet / Poisson scores through lgamma & digamma
a = torch.tensor([0.5, 1.0, 2.0, 4.0])
print(vmap(grad(lambda c: D.Gamma(c, 2.0).log_prob(torch.tensor(0.7))))(a))
print(vmap(grad(lambda c: D.Beta(c, 2.0).log_prob(torch.tensor(0.3))))(a))
print(vmap(grad(lambda c: D.Dirichlet(c).log_prob(torch.tensor([0.2, 0.3, 0.5]))))(a[:, None] * torch.tensor([1.0, 2.0, 3.0])))
print(vmap(grad(lambda r: D.Poisson(r).log_prob(torch.tensor(2.0))))(a))
print(vmap(grad(lambda l: D.Bernoulli(logits=l).log_prob(torch.tensor(1.0))))(a - 2))
print(vmap(lambda m, s: D.kl_divergence(D.Normal(m, s), D.Normal(0.0, 1.0)))(x, x.exp()))

# Fisher of a bivariate Gaussian mean (should equal the precision matrix)
tril = torch.tensor([[1.0, 0.0], [0.5, 2.0]])
mvn_lp = lambda mu, xi: D.MultivariateNormal(mu, scale_tril=tril).log_prob(xi)
pts = torch.stack([torch.cos(torch.arange(2.0) + k) for k in range(4)])
print(vmap(grad(mvn_lp), in_dims=(None, 0))(torch.zeros(2), pts))
print(-hessian(lambda mu: mvn_lp(mu, pts).mean())(torch.zeros(2)))
print(D.MultivariateNormal(torch.zeros(2), scale_tril=tril).precision_matrix)

# natural gradient step for a Normal(mu, log_sigma) fit
for it in range(5):
    g = grad(lambda t: gauss_nll(t, x).mean())(theta)
    F = hessian(lambda t: gauss_nll(t, x).mean())(theta)
    theta = theta - torch.linalg.solve(F, g)
    print(it, [round(v, 4) for v in theta.tolist()], f"{gauss_nll(theta, x).mean().item():.4f}")
print("mle", x.mean().item(), x.std(unbiased=False).log().item())
