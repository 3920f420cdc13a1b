# Ordinal (cumulative-logit) regression with ordered cutpoints, Pyro/NumPyro style: a user-defined
# Constraint subclass, its bijection registered with biject_to.register, a custom Transform, and a
# Categorical built from sigmoid differences; validation messages that show the custom constraint.
import torch
import torch.nn.functional as F
from torch.distributions import (Categorical, Distribution, Normal, biject_to, constraints,
                                 transform_to, TransformedDistribution)
from torch.distributions.transforms import Transform

torch.set_printoptions(precision=4)


class _OrderedVector(constraints.Constraint):
    event_dim = 1

    def check(self, value):
        return (value[..., 1:] > value[..., :-1]).all(-1)


ordered_vector = _OrderedVector()


class NonDecreasing(constraints.Constraint):  # no leading underscore: PyTorch's repr drops "N"
    event_dim = 1

    def check(self, value):
        return (value[..., 1:] >= value[..., :-1]).all(-1)


class OrderedTransform(Transform):
    domain = constraints.real_vector
    codomain = ordered_vector
    bijective = True

    def __eq__(self, other):
        return isinstance(other, OrderedTransform)

    def _call(self, x):
        return torch.cat([x[..., :1], x[..., :1] + torch.cumsum(x[..., 1:].exp(), -1)], -1)

    def _inverse(self, y):
        return torch.cat([y[..., :1], (y[..., 1:] - y[..., :-1]).log()], -1)

    def log_abs_det_jacobian(self, x, y):
        return x[..., 1:].sum(-1)


@biject_to.register(_OrderedVector)
@transform_to.register(_OrderedVector)
def _to_ordered(constraint):
    return OrderedTransform()


class OrderedLogistic(Categorical):
    arg_constraints = {"predictor": constraints.real, "cutpoints": ordered_vector}

    def __init__(self, predictor, cutpoints, validate_args=None):
        self.predictor, self.cutpoints = predictor, cutpoints
        cdf = torch.sigmoid(cutpoints - predictor.unsqueeze(-1))
        ones, zeros = torch.ones_like(cdf[..., :1]), torch.zeros_like(cdf[..., :1])
        probs = torch.cat([cdf, ones], -1) - torch.cat([zeros, cdf], -1)
        super().__init__(probs=probs, validate_args=validate_args)


print(ordered_vector, biject_to(ordered_vector), ordered_vector.event_dim)
print(ordered_vector.check(torch.tensor([[-1.0, 0.0, 2.0], [0.0, 0.0, 1.0]])))
t = biject_to(ordered_vector)
y = t(torch.tensor([-1.0, 0.0, 0.5]))
print(y, t.inv(y), t.log_abs_det_jacobian(t.inv(y), y))

x = torch.linspace(-2, 2, 20)
labels = torch.bucketize(x + 0.3 * torch.sin(5 * x), torch.tensor([-1.0, 0.2, 1.2]))
print("labels", labels.tolist())
raw_cut = torch.zeros(3, requires_grad=True)
beta = torch.zeros(1, requires_grad=True)
opt = torch.optim.Adam([raw_cut, beta], lr=0.1)
for step in range(80):
    cut = biject_to(ordered_vector)(raw_cut)
    d = OrderedLogistic(beta * x, cut)
    nll = -d.log_prob(labels).mean() - Normal(0.0, 3.0).log_prob(cut).sum() / 20
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0 or step == 79:
        print(f"{step:2d} nll {nll.item():.4f} beta {beta.item():.3f} cut {[round(c, 3) for c in cut.tolist()]}")
print("probs[0]", d.probs[0], "pred", d.probs.argmax(-1).tolist())
print("accuracy", (d.probs.argmax(-1) == labels).float().mean().item())

for bad in [torch.tensor([0.0, 1.0, 0.5]), torch.tensor([0.0, 0.0, 1.0])]:
    try:
        OrderedLogistic(torch.tensor([0.3]), bad)
    except ValueError as e:
        print("ValueError", str(e).split(", but")[0])
print(NonDecreasing(), NonDecreasing().check(torch.tensor([0.0, 0.0, 1.0])))
try:
    constraints.Constraint().check(torch.zeros(1))
except NotImplementedError:
    print("base", constraints.Constraint())
prior = TransformedDistribution(Normal(torch.zeros(3), 1.0), [])
print(prior.support, OrderedLogistic(torch.zeros(2), torch.tensor([-1.0, 1.0])).support)
