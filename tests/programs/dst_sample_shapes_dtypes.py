# Checking what sample()/rsample() return before wiring a distribution into a model: shapes for
# sample_shape, dtypes, requires_grad / grad_fn under autograd, has_rsample and NotImplementedError.
import torch
import torch.distributions as D

torch.manual_seed(0)
loc = torch.zeros(2, 3, requires_grad=True)
scale = torch.ones(2, 3, requires_grad=True)
p = torch.full((2, 3), 0.3, requires_grad=True)
conc = torch.ones(2, 3, requires_grad=True)
tril = torch.eye(3).expand(2, 3, 3).clone().requires_grad_()

dists = {
    "Normal": D.Normal(loc, scale),
    "Laplace": D.Laplace(loc, scale),
    "Cauchy": D.Cauchy(loc, scale),
    "Gumbel": D.Gumbel(loc, scale),
    "LogNormal": D.LogNormal(loc, scale),
    "HalfNormal": D.HalfNormal(scale),
    "Uniform": D.Uniform(loc, loc + 1),
    "Gamma": D.Gamma(conc, scale),
    "Beta": D.Beta(conc, conc),
    "Dirichlet": D.Dirichlet(conc),
    "Exponential": D.Exponential(scale),
    "StudentT": D.StudentT(conc + 2, loc, scale),
    "Chi2": D.Chi2(conc),
    "Bernoulli": D.Bernoulli(probs=p),
    "Geometric": D.Geometric(probs=p),
    "Poisson": D.Poisson(scale),
    "Binomial": D.Binomial(4, probs=p),
    "Categorical": D.Categorical(probs=p),
    "OneHotCategorical": D.OneHotCategorical(probs=p),
    "RelaxedOneHot": D.RelaxedOneHotCategorical(torch.tensor(0.5), probs=p),
    "RelaxedBernoulli": D.RelaxedBernoulli(torch.tensor(0.5), probs=p),
    "MVN": D.MultivariateNormal(loc, scale_tril=tril),
    "Independent": D.Independent(D.Normal(loc, scale), 1),
    "Kumaraswamy": D.Kumaraswamy(conc, conc),
    "Weibull": D.Weibull(scale, conc),
    "Pareto": D.Pareto(scale, conc),
}
for name, d in dists.items():
    s = d.sample((4,))
    line = [f"{name:18s}", tuple(s.shape), str(s.dtype).replace("torch.", ""), s.requires_grad,
            d.has_rsample, tuple(d.batch_shape), tuple(d.event_shape)]
    if d.has_rsample:
        r = d.rsample()
        line += [tuple(r.shape), r.requires_grad, type(r.grad_fn).__name__ != "NoneType"]
    else:
        try:
            d.rsample()
        except NotImplementedError as e:
            line += ["NotImplementedError", str(e)]
    print(*line)

with torch.no_grad():
    r = dists["Normal"].rsample()
print("no_grad rsample", r.requires_grad, r.grad_fn)
print(D.Normal(0.0, 1.0).sample().shape, D.Normal(0.0, 1.0).sample().dtype)
print(D.Normal(torch.tensor(0.0, dtype=torch.float64), 1.0).sample((2,)).dtype)
print(D.Bernoulli(0.5).sample().dtype, D.Categorical(logits=torch.zeros(4, dtype=torch.float64)).sample().dtype)
print(D.Poisson(torch.tensor([1.0, 2.0], dtype=torch.float64)).sample().dtype)
print(D.Normal(loc, scale).sample(torch.Size([5, 1])).shape)
print(D.Normal(loc, scale).sample_n(2).shape if hasattr(D.Normal, "sample_n") else None)
print(D.Categorical(probs=p).enumerate_support().shape, D.Categorical(probs=p).enumerate_support(expand=False).shape)
print(D.Bernoulli(probs=p).enumerate_support().shape, D.Bernoulli(probs=p).enumerate_support(False).shape)
print(D.OneHotCategorical(probs=p).enumerate_support().shape)
print(D.Binomial(4, probs=p).enumerate_support(False).squeeze())
print(D.Normal(0.0, 1.0).has_enumerate_support, D.Categorical(probs=p).has_enumerate_support)
try:
    D.Normal(0.0, 1.0).enumerate_support()
except NotImplementedError as e:
    print("NotImplementedError", e)
