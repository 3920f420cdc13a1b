# A custom torch.distributions.Distribution subclass for skewed returns (Azzalini skew-normal),
# written the quick way (no arg_constraints / support) and the proper way, then fitted by MLE.
import math
import warnings
import torch
from torch.distributions import Distribution, Normal, constraints

warnings.simplefilter("ignore")  # the quick subclass warns about missing arg_constraints
dtype = torch.float64


class QuickSkewNormal(Distribution):
    def __init__(self, loc, scale, alpha, validate_args=None):
        self.loc, self.scale, self.alpha = loc, scale, alpha
        super().__init__(loc.shape, validate_args=validate_args)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        z = (x - self.loc) / self.scale
        std = Normal(torch.zeros((), dtype=dtype), torch.ones((), dtype=dtype))
        return math.log(2) + std.log_prob(z) + torch.special.log_ndtr(self.alpha * z) - self.scale.log()


class SkewNormal(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "alpha": constraints.real}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, scale, alpha, validate_args=None):
        self.loc, self.scale, self.alpha = torch.broadcast_tensors(loc, scale, alpha)
        super().__init__(self.loc.shape, validate_args=validate_args)

    @property
    def mean(self):
        delta = self.alpha / torch.sqrt(1 + self.alpha ** 2)
        return self.loc + self.scale * delta * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        delta = self.alpha / torch.sqrt(1 + self.alpha ** 2)
        return self.scale ** 2 * (1 - 2 * delta ** 2 / math.pi)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        z = (x - self.loc) / self.scale
        return math.log(2 / math.sqrt(2 * math.pi)) - z ** 2 / 2 + torch.special.log_ndtr(self.alpha * z) - self.scale.log()


q = QuickSkewNormal(torch.tensor([0.0, 0.1], dtype=dtype), torch.tensor([1.0, 2.0], dtype=dtype), torch.tensor(3.0, dtype=dtype))
print("quick", q.batch_shape, q.event_shape)
print("quick log_prob", q.log_prob(torch.tensor([0.5, -0.5], dtype=dtype)))
try:
    print(q)
except NotImplementedError as e:
    print("repr NotImplementedError", repr(e))
try:
    q.mean
except NotImplementedError as e:
    print("mean NotImplementedError", repr(e))

s = SkewNormal(torch.tensor(0.0, dtype=dtype), torch.tensor([1.0, 2.0], dtype=dtype), 3.0 * torch.ones((), dtype=dtype))
print(s)
print("mean", s.mean, "var", s.variance, "std", s.stddev)
try:
    SkewNormal(torch.tensor(0.0), torch.tensor(-1.0), torch.tensor(1.0))
except ValueError as e:
    print("ValueError", e)

# MLE on a deterministic left-skewed sample (quantiles of a skewed transform)
u = torch.linspace(0.005, 0.995, 300, dtype=dtype)
z = torch.special.ndtri(u)
x = 0.01 * (z - 0.3 * (z.clamp(max=0) ** 2))
params = torch.tensor([0.0, math.log(0.01), 0.0], dtype=dtype, requires_grad=True)
opt = torch.optim.Adam([params], lr=0.05)
for step in range(60):
    d = SkewNormal(params[0], params[1].exp(), params[2])
    nll = -d.log_prob(x).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0:
        print(step, f"nll={nll.item():.5f}")
d = SkewNormal(params[0].detach(), params[1].exp().detach(), params[2].detach())
print(f"alpha={d.alpha.item():.3f} (negative: left skew) scale={d.scale.item():.5f}")
print(f"model mean={d.mean.item():.6f} sample mean={x.mean().item():.6f}")
