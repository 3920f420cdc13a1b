# Support / parameter checks of torch.distributions: the ValueError messages users hit when a VAE
# decoder outputs a negative scale, a log_prob gets an out-of-support value, or validation is off.
import torch
from torch.distributions import (Normal, Bernoulli, Categorical, Beta, Uniform, Independent,
                                 Distribution, MultivariateNormal, OneHotCategorical, Gamma, Exponential)


def show(fn):
    try:
        r = fn()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, e)


show(lambda: Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, -1.0])))
show(lambda: Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
show(lambda: Normal(0.0, -2.0))
show(lambda: Bernoulli(probs=torch.tensor([0.2, 1.5])))
show(lambda: Bernoulli(probs=torch.tensor(0.3), logits=torch.tensor(0.1)))
show(lambda: Bernoulli())
show(lambda: Categorical(probs=torch.tensor([0.5, -0.1, 0.6])))
show(lambda: Categorical(logits=torch.tensor(1.0)))
show(lambda: Beta(torch.tensor(0.0), torch.tensor(1.0)))
show(lambda: Gamma(torch.tensor([1.0]), torch.tensor([-1.0])))
show(lambda: Exponential(torch.tensor(-1.0)))
show(lambda: Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]), validate_args=False).scale)
show(lambda: Normal(torch.tensor([0.0, float("nan")]), torch.tensor([1.0, 1.0])))

b = Bernoulli(probs=torch.tensor([0.2, 0.8]))
show(lambda: b.log_prob(torch.tensor([0.0, 1.0])))
show(lambda: b.log_prob(torch.tensor([0.5, 1.0])))
c = Categorical(logits=torch.zeros(3))
show(lambda: c.log_prob(torch.tensor(2)))
show(lambda: c.log_prob(torch.tensor(3)))
show(lambda: c.log_prob(torch.tensor(-1)))
u = Uniform(0.0, 1.0)
show(lambda: u.log_prob(torch.tensor(0.5)))
show(lambda: u.log_prob(torch.tensor(1.5)))
u2 = Uniform(0.0, 1.0, validate_args=False)
show(lambda: u2.log_prob(torch.tensor([0.5, 1.5])))
be = Beta(torch.tensor(2.0), torch.tensor(2.0))
show(lambda: be.log_prob(torch.tensor(1.2)))
n = Normal(torch.zeros(3), torch.ones(3))
show(lambda: n.log_prob(torch.zeros(2)))
show(lambda: n.log_prob(torch.zeros(4, 3)).shape)
show(lambda: Independent(n, 2))
show(lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
show(lambda: MultivariateNormal(torch.zeros(2)))
oh = OneHotCategorical(probs=torch.tensor([0.2, 0.8]))
show(lambda: oh.log_prob(torch.tensor([1.0, 1.0])))
show(lambda: oh.log_prob(torch.tensor([0.0, 1.0])))

print(Distribution._validate_args if hasattr(Distribution, "_validate_args") else None)
Distribution.set_default_validate_args(False)
show(lambda: Normal(0.0, -1.0).scale)
show(lambda: Bernoulli(probs=torch.tensor([0.5])).log_prob(torch.tensor([0.5])))
Distribution.set_default_validate_args(True)
show(lambda: Normal(0.0, -1.0))
