# Quantile/CDF helpers used for prediction intervals and CRPS-like losses: cdf/icdf across
# distributions, their gradients wrt parameters, NotImplementedError for missing ones, support checks.
import torch
import torch.distributions as D

torch.set_printoptions(precision=4)
q = torch.tensor([0.05, 0.25, 0.5, 0.75, 0.95])
x = torch.tensor([-1.5, -0.2, 0.0, 0.7, 2.5])

def params():
    return torch.tensor(0.3, requires_grad=True), torch.tensor(1.2, requires_grad=True)

def make(name, a, b):
    return {
        "Normal": lambda: D.Normal(a, b),
        "Laplace": lambda: D.Laplace(a, b),
        "Cauchy": lambda: D.Cauchy(a, b),
        "Gumbel": lambda: D.Gumbel(a, b),
        "Uniform": lambda: D.Uniform(a - 3, b + 2),
        "HalfNormal": lambda: D.HalfNormal(b),
        "HalfCauchy": lambda: D.HalfCauchy(b),
        "Exponential": lambda: D.Exponential(b),
        "LogNormal": lambda: D.LogNormal(a, b),
        "Weibull": lambda: D.Weibull(b, a + 1),
        "Pareto": lambda: D.Pareto(b * 0.1, a + 1),
        "Logistic": lambda: D.TransformedDistribution(D.Uniform(0., 1.), [D.SigmoidTransform().inv, D.AffineTransform(a, b)]),
        "StudentT": lambda: D.StudentT(b + 2, a, b),
        "Gamma": lambda: D.Gamma(b, a + 1),
        "Beta": lambda: D.Beta(b, a + 1),
        "Kumaraswamy": lambda: D.Kumaraswamy(b, a + 1),
        "ContinuousBernoulli": lambda: D.ContinuousBernoulli(probs=a),
    }[name]()

for name in ["Normal", "Laplace", "Cauchy", "Gumbel", "Uniform", "HalfNormal", "HalfCauchy",
             "Exponential", "LogNormal", "Weibull", "Pareto", "Logistic", "StudentT", "Gamma",
             "Beta", "Kumaraswamy", "ContinuousBernoulli"]:
    a, b = params()
    d = make(name, a, b)
    out = [f"{name:20s}"]
    try:
        qs = d.icdf(q)
        g = torch.autograd.grad(qs.sum(), (a, b), allow_unused=True)
        out.append("icdf " + " ".join(f"{v:.4f}" for v in qs.tolist()))
        out.append("grad " + " ".join("None" if t is None else f"{t.item():.4f}" for t in g))
    except NotImplementedError as e:
        out.append(f"icdf NotImplementedError{e}")
    a, b = params()
    d = make(name, a, b)
    try:
        xs = x.abs() + 0.5 if name in ("HalfNormal", "HalfCauchy", "Exponential", "LogNormal", "Weibull", "Pareto", "Gamma") else x
        xs = torch.tensor([0.1, 0.3, 0.5, 0.7, 0.9]) if name in ("Beta", "Kumaraswamy", "ContinuousBernoulli") else xs
        cs = d.cdf(xs)
        g = torch.autograd.grad(cs.sum(), (a, b), allow_unused=True)
        out.append("cdf " + " ".join(f"{v:.4f}" for v in cs.tolist()))
        out.append("grad " + " ".join("None" if t is None else f"{t.item():.4f}" for t in g))
    except NotImplementedError as e:
        out.append(f"cdf NotImplementedError{e}")
    except ValueError as e:
        out.append("cdf ValueError " + str(e)[:60])
    print(*out)

n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.icdf(torch.tensor([[0.0], [1.0]])))
print(n.cdf(torch.tensor([float("inf"), -float("inf")])))
for bad in [torch.tensor(1.5), torch.tensor(-0.1)]:
    try:
        print(n.icdf(bad))
    except ValueError as e:
        print("ValueError", str(e)[:100])
u = D.Uniform(0.0, 2.0)
print(u.cdf(torch.tensor([0.5, 1.0])), u.icdf(torch.tensor([0.25, 1.0])))
try:
    u.cdf(torch.tensor(3.0))
except ValueError as e:
    print("ValueError", str(e)[:100])
print(D.Uniform(0.0, 2.0, validate_args=False).cdf(torch.tensor([-1.0, 3.0])))
print(D.Exponential(2.0).cdf(torch.tensor([0.0, 1.0])), D.Exponential(2.0).icdf(torch.tensor([0.0, 0.5])))
