# Constrained parameters as in variational inference code (Pyro-style guides in plain PyTorch):
# arg_constraints / support reprs, constraints.check, biject_to / transform_to, expand, utils.
import torch
import torch.distributions as D
from torch.distributions import constraints, biject_to, transform_to
from torch.distributions.utils import logits_to_probs, probs_to_logits, broadcast_all, clamp_probs

for cls in (D.Normal, D.Bernoulli, D.Categorical, D.Beta, D.Gamma, D.Uniform, D.MultivariateNormal,
            D.Dirichlet, D.LogNormal, D.Exponential):
    print(cls.__name__, cls.arg_constraints, cls.has_rsample)
print(D.Normal.support, D.Bernoulli.support, D.Gamma.support, D.Dirichlet.support)
print(D.Categorical(logits=torch.zeros(3)).support, D.Uniform(0.0, 2.0).support)
print(D.Binomial(10, probs=torch.tensor(0.2)).support)
print(constraints.positive, constraints.unit_interval, constraints.simplex, constraints.real_vector)
print(constraints.interval(-1.0, 1.0), constraints.greater_than(2.0), constraints.integer_interval(0, 5))
print(constraints.positive.check(torch.tensor([1.0, 0.0, -1.0])))
print(constraints.simplex.check(torch.tensor([[0.2, 0.8], [0.5, 0.6]])))
print(constraints.lower_cholesky.check(torch.tensor([[1.0, 0.0], [2.0, 3.0]])))
print(constraints.positive_definite.check(torch.eye(2)))
print(constraints.independent(constraints.real, 1).check(torch.tensor([[0.0, float("nan")], [1.0, 2.0]])))
print(constraints.boolean.check(torch.tensor([0.0, 1.0, 0.5])))
print(constraints.positive.is_discrete, constraints.nonnegative_integer.is_discrete, constraints.simplex.event_dim)

for c in (constraints.positive, constraints.unit_interval, constraints.real, constraints.simplex,
          constraints.interval(-2.0, 3.0), constraints.greater_than(1.0), constraints.lower_cholesky, constraints.corr_cholesky):
    t = transform_to(c)
    print(c, "->", t)
raw = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
pos = biject_to(constraints.positive)(raw)
print(pos, pos.grad_fn is not None)
print(biject_to(constraints.interval(-2.0, 3.0))(raw))
print(transform_to(constraints.simplex)(raw), biject_to(constraints.simplex)(raw))
print(transform_to(constraints.lower_cholesky)(torch.tensor([[0.0, 5.0], [1.0, 0.5]])))
t = biject_to(constraints.positive)
print(t.inv(torch.tensor([1.0, 2.0])), t.log_abs_det_jacobian(raw, pos))
try:
    biject_to(constraints.nonnegative_integer)
except NotImplementedError as e:
    print("NotImplementedError", e)

n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor(1.0))
print(n.loc, n.scale)
e = n.expand(torch.Size([3, 2]))
print(e, e.batch_shape, e.loc.shape)
print(D.Bernoulli(probs=torch.tensor([0.3])).expand([4]).probs)
print(D.Categorical(logits=torch.zeros(2, 3)).expand([5, 2]).batch_shape)
print(D.Independent(D.Normal(torch.zeros(4, 3), 1.0), 1).expand([2, 4]).batch_shape)
try:
    n.expand([3, 4])
except RuntimeError as err:
    print("RuntimeError", err)

print(logits_to_probs(torch.tensor([0.0, 1.0, -1.0])))
print(logits_to_probs(torch.tensor([0.0, 1.0, -1.0]), is_binary=True))
print(probs_to_logits(torch.tensor([0.25, 0.75])))
print(probs_to_logits(torch.tensor([0.25, 0.75]), is_binary=True))
print(clamp_probs(torch.tensor([0.0, 1.0])))
a, b = broadcast_all(torch.tensor([1.0, 2.0]), 3.0)
print(a, b)
a, b = broadcast_all(1.0, 2.0)
print(a, b, a.dtype)
try:
    broadcast_all(torch.zeros(2), torch.zeros(3))
except RuntimeError as err:
    print("RuntimeError", err)
c = D.Categorical(probs=torch.tensor([1.0, 3.0]))
print(c.probs, c.logits)
print(D.Geometric(probs=torch.tensor(0.3)).log_prob(torch.tensor(2.0)), D.Poisson(torch.tensor(4.0)).log_prob(torch.tensor([0.0, 3.0])))
print(D.Binomial(5, probs=torch.tensor([0.2, 0.7])).log_prob(torch.tensor([1.0, 5.0])), D.Binomial(5, probs=torch.tensor(0.2)).mean)
