# NICE (Dinh et al. 2014) as in PyTorch re-implementations: additive coupling layers with
# even/odd partitions via index slicing, a diagonal scaling layer, and the standard logistic prior
# built as TransformedDistribution(Uniform(0, 1), [SigmoidTransform().inv, AffineTransform]).
import torch
import torch.nn as nn
from torch.distributions import Uniform, TransformedDistribution
from torch.distributions.transforms import SigmoidTransform, AffineTransform

D = 6
logistic = TransformedDistribution(Uniform(torch.zeros(D), torch.ones(D)), [SigmoidTransform().inv, AffineTransform(0.0, 1.0)])
print(logistic.batch_shape, logistic.event_shape, logistic.support)
z = torch.linspace(-3, 3, 7).unsqueeze(1).expand(7, D)
manual = -(torch.nn.functional.softplus(z) + torch.nn.functional.softplus(-z))
print(torch.allclose(logistic.log_prob(z), manual), logistic.log_prob(z)[:, 0])
print(SigmoidTransform().inv, SigmoidTransform().inv(torch.tensor([0.25, 0.5])))


class Coupling(nn.Module):
    def __init__(self, parity):
        super().__init__()
        self.parity = parity
        self.m = nn.Sequential(nn.Linear(D // 2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, D // 2))

    def forward(self, x, reverse=False):
        on, off = (x[:, 0::2], x[:, 1::2]) if self.parity == 0 else (x[:, 1::2], x[:, 0::2])
        shift = self.m(off)
        on = on - shift if reverse else on + shift
        out = torch.empty_like(x)
        if self.parity == 0:
            out[:, 0::2], out[:, 1::2] = on, off
        else:
            out[:, 1::2], out[:, 0::2] = on, off
        return out


class NICE(nn.Module):
    def __init__(self):
        super().__init__()
        self.couplings = nn.ModuleList([Coupling(i % 2) for i in range(4)])
        self.log_scale = nn.Parameter(torch.zeros(1, D))

    def forward(self, x):
        for c in self.couplings:
            x = c(x)
        return x * torch.exp(self.log_scale), self.log_scale.sum()

    def inverse(self, z):
        x = z * torch.exp(-self.log_scale)
        for c in reversed(self.couplings):
            x = c(x, reverse=True)
        return x

    def log_prob(self, x):
        z, log_det = self(x)
        return logistic.log_prob(z).sum(1) + log_det


model = NICE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape))
t = torch.linspace(0, 1, 64).unsqueeze(1)
data = torch.cat([torch.sin(6 * t + k) * (1 + k * 0.1) for k in range(D)], 1)
print(data.shape, model.log_prob(data[:3]))
print("inverse ok", torch.allclose(model.inverse(model(data)[0]), data, atol=1e-5))
J = torch.autograd.functional.jacobian(lambda v: model(v.unsqueeze(0))[0][0], data[0])
print(f"{torch.linalg.slogdet(J).logabsdet.item():.5f} {model(data[:1])[1].item():.5f}")

opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.01), eps=1e-4)
for step in range(30):
    loss = -model.log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} nll {loss.item():.4f} scale {model.log_scale.data.exp().mean().item():.4f}")
with torch.no_grad():
    u = torch.stack([torch.linspace(0.1, 0.9, D) for _ in range(3)]) ** torch.tensor([[1.0], [2.0], [0.5]])
    zs = logistic.transforms[0](u)
    print(zs.round(decimals=3))
    print(model.inverse(zs).round(decimals=3))
