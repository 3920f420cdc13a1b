# Argument validation as a Bayesian-modelling library relies on it: set_default_validate_args
# toggling, per-instance validate_args, error messages for bad parameters / out-of-support values,
# and a user-defined Distribution subclass with arg_constraints, support and expand.
import math
import torch
from torch.distributions import (Distribution, constraints, Normal, Binomial, Poisson, Dirichlet,
                                 LowRankMultivariateNormal, VonMises, Geometric, NegativeBinomial,
                                 Laplace, Gumbel, Weibull, Kumaraswamy, Pareto, FisherSnedecor)
from torch.distributions.utils import broadcast_all


class Logistic(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Logistic, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Logistic, new).__init__(torch.Size(batch_shape), validate_args=False)
        new._validate_args = self._validate_args
        return new

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -z - 2 * torch.nn.functional.softplus(-z) - self.scale.log()

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return (math.pi * self.scale) ** 2 / 3


def show(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(label, "->", type(e).__name__, str(e).split("\n")[0][:160])


lg = Logistic(torch.tensor([0.0, 1.0]), 2.0)
print(lg, lg.batch_shape, lg.arg_constraints)
show("logistic lp", lambda: lg.log_prob(torch.tensor([0.5, -0.5])))
show("logistic bad scale", lambda: Logistic(0.0, torch.tensor([1.0, -1.0])))
show("logistic expand", lambda: lg.expand((3, 2)).log_prob(torch.zeros(3, 2)).shape)
show("logistic var", lambda: (lg.variance, lg.stddev))
show("logistic entropy", lambda: lg.entropy())
show("logistic cdf", lambda: lg.cdf(torch.zeros(2)))
show("logistic shape", lambda: lg.log_prob(torch.zeros(3)))

show("binomial count", lambda: Binomial(torch.tensor([3.0, -1.0]), probs=torch.tensor(0.5)))
show("binomial value", lambda: Binomial(3, probs=torch.tensor(0.5)).log_prob(torch.tensor(4.0)))
show("poisson rate", lambda: Poisson(torch.tensor([-1.0])))
show("poisson value", lambda: Poisson(torch.tensor([2.0])).log_prob(torch.tensor([1.5])))
show("dirichlet conc", lambda: Dirichlet(torch.tensor([1.0, 0.0])))
show("dirichlet value", lambda: Dirichlet(torch.ones(3)).log_prob(torch.tensor([0.5, 0.6, -0.1])))
show("lowrank shapes", lambda: LowRankMultivariateNormal(torch.zeros(3), torch.ones(2, 1), torch.ones(3)))
show("lowrank diag", lambda: LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), -torch.ones(3)))
show("vonmises conc", lambda: VonMises(0.0, -1.0))
show("geometric p", lambda: Geometric(probs=torch.tensor(0.0)))
show("negbin count", lambda: NegativeBinomial(torch.tensor(-2.0), probs=torch.tensor(0.5)))
show("laplace scale", lambda: Laplace(0.0, 0.0))
show("gumbel value", lambda: Gumbel(0.0, 1.0).log_prob(torch.tensor(float("inf"))))
show("weibull value", lambda: Weibull(1.0, 2.0).log_prob(torch.tensor(-0.5)))
show("kumaraswamy", lambda: Kumaraswamy(1.0, 2.0).log_prob(torch.tensor(1.5)))
show("pareto value", lambda: Pareto(2.0, 3.0).log_prob(torch.tensor(1.0)))
show("fisher df", lambda: FisherSnedecor(-1.0, 2.0))

print("default", Distribution._validate_args)
Distribution.set_default_validate_args(False)
show("off: normal", lambda: Normal(0.0, -1.0).log_prob(torch.tensor(0.0)))
show("off: poisson", lambda: Poisson(torch.tensor([2.0])).log_prob(torch.tensor([1.5])))
show("off: logistic", lambda: Logistic(0.0, -1.0).scale)
show("off but explicit", lambda: Normal(0.0, -1.0, validate_args=True))
Distribution.set_default_validate_args(True)
show("on again", lambda: Normal(0.0, -1.0))
show("explicit off", lambda: Normal(0.0, -1.0, validate_args=False).scale)
try:
    Distribution.set_default_validate_args("yes")
except ValueError as e:
    print("ValueError", e)
print(Distribution._validate_args, Normal(0.0, 1.0)._validate_args, Normal(0.0, 1.0, validate_args=False)._validate_args)
