# Maximum-likelihood fitting of distribution parameters with nn.Parameter + Adam (unconstrained
# parameters mapped through softplus / biject_to), comparing families by NLL like a model-selection notebook.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributions as D
from torch.distributions import constraints, biject_to

data_pos = 0.5 + 1.5 * (torch.sin(torch.arange(40.0) * 1.7) + 1.0)        # positive data
data_unit = (torch.cos(torch.arange(40.0) * 0.9) + 1.05) / 2.1               # (0, 1) data
data_simplex = torch.softmax(torch.stack([torch.sin(torch.arange(3.0) * k + 0.3) for k in range(20)]), -1)
data_counts = torch.tensor([0., 1., 1., 2., 3., 0., 5., 2., 1., 4., 2., 2., 0., 1., 3., 6.])
angles = torch.remainder(torch.arange(30.0) * 0.37, 2.0) - 1.0


class Fit(nn.Module):
    def __init__(self, family, supports):
        super().__init__()
        self.family = family
        self.supports = supports
        self.raw = nn.ParameterList([nn.Parameter(torch.zeros(s) if isinstance(s, tuple) else torch.zeros(()))
                                     for s, _ in supports])

    def dist(self):
        args = [biject_to(c)(p) for p, (_, c) in zip(self.raw, self.supports)]
        return self.family(*args)


def fit(name, family, supports, data, steps=60, lr=0.1):
    model = Fit(family, supports)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        nll = -model.dist().log_prob(data).mean()
        opt.zero_grad()
        nll.backward()
        opt.step()
    d = model.dist()
    params = {k: [round(v, 3) for v in torch.as_tensor(getattr(d, k)).reshape(-1).tolist()]
              for k in d.arg_constraints}
    print(f"{name:12s} nll={-d.log_prob(data).mean().item():.4f}", params)
    return d


pos = constraints.positive
fit("Gamma", D.Gamma, [((), pos), ((), pos)], data_pos)
fit("LogNormal", D.LogNormal, [((), constraints.real), ((), pos)], data_pos)
fit("Weibull", D.Weibull, [((), pos), ((), pos)], data_pos)
fit("Exponential", D.Exponential, [((), pos)], data_pos)
fit("HalfNormal", D.HalfNormal, [((), pos)], data_pos)
fit("InvGamma", D.InverseGamma, [((), pos), ((), pos)], data_pos)
fit("Beta", D.Beta, [((), pos), ((), pos)], data_unit)
fit("Kumaraswamy", D.Kumaraswamy, [((), pos), ((), pos)], data_unit)
fit("ContBern", lambda p: D.ContinuousBernoulli(probs=p), [((), constraints.unit_interval)], data_unit)
fit("Dirichlet", D.Dirichlet, [((3,), constraints.positive)], data_simplex)
fit("Poisson", D.Poisson, [((), pos)], data_counts)
fit("NegBinom", lambda n, l: D.NegativeBinomial(n, logits=l), [((), pos), ((), constraints.real)], data_counts)
fit("Geometric", lambda p: D.Geometric(probs=p), [((), constraints.unit_interval)], data_counts)
fit("VonMises", D.VonMises, [((), constraints.real), ((), pos)], angles)
fit("StudentT", D.StudentT, [((), pos), ((), constraints.real), ((), pos)], angles)
fit("Laplace", D.Laplace, [((), constraints.real), ((), pos)], angles)
fit("Cauchy", D.Cauchy, [((), constraints.real), ((), pos)], angles)
fit("Gumbel", D.Gumbel, [((), constraints.real), ((), pos)], angles)
