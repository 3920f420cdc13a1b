# A RealNVP coupling written as a torch.distributions.Transform subclass and stacked inside a
# TransformedDistribution (as in flow tutorials built on torch.distributions), trained by max
# likelihood; also a custom Distribution subclass with validate_args and sample shapes.
import torch
import torch.nn as nn
from torch.distributions import Normal, Independent, TransformedDistribution, Distribution, constraints
from torch.distributions.transforms import Transform, ComposeTransform, AffineTransform


class CouplingTransform(Transform):
    domain = constraints.real_vector
    codomain = constraints.real_vector
    bijective = True

    def __init__(self, net, mask):
        super().__init__(cache_size=1)
        self.net = net
        self.mask = mask

    def _params(self, x):
        s, t = self.net(x * self.mask).chunk(2, dim=-1)
        return torch.tanh(s) * (1 - self.mask), t * (1 - self.mask)

    def _call(self, x):
        s, t = self._params(x)
        return x * torch.exp(s) + t

    def _inverse(self, y):
        s, t = self._params(y)
        return (y - t) * torch.exp(-s)

    def log_abs_det_jacobian(self, x, y):
        s, _ = self._params(x)
        return s.sum(-1)


dim = 4
masks = [torch.tensor([1.0, 0.0, 1.0, 0.0]), torch.tensor([0.0, 1.0, 0.0, 1.0])] * 2
nets = nn.ModuleList([nn.Sequential(nn.Linear(dim, 8), nn.ReLU(), nn.Linear(8, 2 * dim)) for _ in masks])
with torch.no_grad():
    for i, p in enumerate(nets.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape))

base = Independent(Normal(torch.zeros(dim), torch.ones(dim)), 1)


def make_flow():
    return TransformedDistribution(base, [CouplingTransform(n, m) for n, m in zip(nets, masks)])


flow = make_flow()
print(flow.batch_shape, flow.event_shape, len(flow.transforms))
print(type(flow.transforms[0]).__name__, flow.transforms[0].event_dim, flow.transforms[0].inv)
t = torch.linspace(0, 1, 16)
data = torch.stack([torch.sin(6 * t), torch.cos(6 * t), t * 2 - 1, torch.sin(3 * t) * t], 1)
lp = flow.log_prob(data)
print(lp.shape, f"{lp.mean().item():.4f}")
z = torch.cos(torch.arange(dim * 3, dtype=torch.float32)).view(3, dim)
y = ComposeTransform(flow.transforms)(z)
x_back = ComposeTransform(flow.transforms).inv(y)
print(torch.allclose(x_back, z, atol=1e-5))
print(flow.sample((6,)).shape, flow.rsample((2, 3)).shape)

opt = torch.optim.Adam(nets.parameters(), lr=5e-3)
for step in range(30):
    loss = -make_flow().log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(f"step {step:2d} nll {loss.item():.4f}")


class Logistic(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = loc, scale
        super().__init__(batch_shape=loc.shape, validate_args=validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -z - 2 * torch.nn.functional.softplus(-z) - self.scale.log()

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = torch.full(shape, 0.25)
        return self.loc + self.scale * (u.log() - (-u).log1p())


lg = Logistic(torch.zeros(3), torch.tensor([1.0, 2.0, 0.5]))
print(lg)
print(lg.log_prob(torch.tensor([0.0, 1.0, -1.0])))
print(lg.rsample((2,)), lg.sample().shape, lg._extended_shape((4, 1)))
try:
    Logistic(torch.zeros(2), torch.tensor([1.0, -1.0]))
except ValueError as e:
    print("ValueError", e)
try:
    lg.log_prob(torch.tensor([float("nan"), 0.0, 0.0]))
except ValueError as e:
    print("ValueError", e)
try:
    lg.entropy()
except NotImplementedError as e:
    print("NotImplementedError", repr(e))
td = TransformedDistribution(Logistic(torch.zeros(2), torch.ones(2)), AffineTransform(1.0, 2.0))
print(td.log_prob(torch.tensor([1.0, 3.0])), td.batch_shape)
