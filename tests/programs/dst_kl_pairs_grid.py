# Table of closed-form kl_divergence values between registered distribution pairs (as in a
# VI tutorial comparing priors), their gradients, and NotImplementedError for unregistered pairs.
import torch
from torch.distributions import (Normal, Laplace, Gamma, Beta, Exponential, Uniform, Poisson,
                                 Dirichlet, Geometric, Bernoulli, Binomial, Gumbel, LogNormal,
                                 HalfNormal, Categorical, OneHotCategorical, Pareto, kl_divergence)

a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
b = torch.tensor([1.5, 1.0, 0.7], requires_grad=True)

pairs = {
    "Normal||Laplace": (Normal(a, b), Laplace(b, a)),
    "Laplace||Normal": (Laplace(a, b), Normal(b, a)),
    "Gamma||Gamma": (Gamma(a, b), Gamma(b, a)),
    "Beta||Beta": (Beta(a, b), Beta(b, a)),
    "Exponential||Gamma": (Exponential(a), Gamma(b, a)),
    "Gamma||Exponential": (Gamma(a, b), Exponential(b)),
    "Exponential||Normal": (Exponential(a), Normal(b, a)),
    "Uniform||Normal": (Uniform(-a, b), Normal(b, a)),
    "Uniform||Gamma": (Uniform(a, a + b), Gamma(b, a)),
    "Poisson||Poisson": (Poisson(a), Poisson(b)),
    "Geometric||Geometric": (Geometric(probs=a / 3), Geometric(probs=b / 2)),
    "Bernoulli||Poisson": (Bernoulli(probs=a / 3), Poisson(b)),
    "Binomial||Binomial": (Binomial(5, probs=a / 3), Binomial(5, probs=b / 2)),
    "Gumbel||Gumbel": (Gumbel(a, b), Gumbel(b, a)),
    "LogNormal||LogNormal": (LogNormal(a, b), LogNormal(b, a)),
    "HalfNormal||HalfNormal": (HalfNormal(a), HalfNormal(b)),
    "Pareto||Pareto": (Pareto(a, b + 1), Pareto(a * 0.5, b)),
    "Beta||Uniform": (Beta(a, b), Uniform(torch.zeros(3), torch.ones(3))),
    "Normal||Gumbel": (Normal(a, b), Gumbel(b, a)),
}
for name, (p, q) in pairs.items():
    try:
        kl = kl_divergence(p, q)
        (ga, gb) = torch.autograd.grad(kl.sum(), (a, b), allow_unused=True)
        print(f"{name:24s}", [round(v, 4) for v in kl.tolist()],
              None if ga is None else [round(v, 4) for v in ga.tolist()],
              None if gb is None else [round(v, 4) for v in gb.tolist()])
    except NotImplementedError as e:
        print(f"{name:24s}", "NotImplementedError", e)

d1 = Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]], requires_grad=True))
d2 = Dirichlet(torch.tensor([2.0, 2.0, 2.0]))
kl = kl_divergence(d1, d2)
kl.sum().backward()
print("Dirichlet", kl, d1.concentration.grad)

c1 = Categorical(logits=torch.tensor([0.0, 1.0, -1.0]))
c2 = OneHotCategorical(logits=torch.tensor([1.0, 0.0, 0.0]))
try:
    print(kl_divergence(c1, c2))
except NotImplementedError as e:
    print("NotImplementedError", e)
print(kl_divergence(OneHotCategorical(logits=c1.logits), c2))
print(kl_divergence(Normal(0., 1.), Normal(0., 1.)))
print(kl_divergence(Uniform(0., 2.), Uniform(0.5, 1.0)))
print(kl_divergence(Uniform(0.5, 1.0), Uniform(0., 2.)))
print(kl_divergence(Normal(0., 1.), Uniform(-1., 1.)))
print(kl_divergence(Exponential(torch.tensor(2.0)), Exponential(torch.tensor(0.5))))
