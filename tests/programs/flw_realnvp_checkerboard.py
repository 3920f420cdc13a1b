# RealNVP (Dinh et al.) on 2-D toy data as in flow tutorials: affine coupling layers with
# alternating binary masks registered as buffers, tanh-bounded log-scales, exact log-likelihood
# under a standard Normal base, a Jacobian/slogdet check, and inverse sampling from fixed z.
import math
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal


class Coupling(nn.Module):
    def __init__(self, mask, hidden=16):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 2))

    def forward(self, x):
        x_m = x * self.mask
        s = self.s(x_m) * (1 - self.mask)
        t = self.t(x_m) * (1 - self.mask)
        y = x_m + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        y_m = y * self.mask
        s = self.s(y_m) * (1 - self.mask)
        t = self.t(y_m) * (1 - self.mask)
        return y_m + (1 - self.mask) * (y - t) * torch.exp(-s)


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0]) for i in range(n_layers)]
        self.layers = nn.ModuleList([Coupling(m) for m in masks])
        self.prior = MultivariateNormal(torch.zeros(2), torch.eye(2))

    def f(self, x):
        log_det = x.new_zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def log_prob(self, x):
        z, log_det = self.f(x)
        return self.prior.log_prob(z) + log_det

    def sample_from(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


model = RealNVP()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape))
print([n for n, _ in model.named_buffers()])
print(sorted(model.state_dict().keys())[:6])

n = 128
t = torch.linspace(0, 4 * math.pi, n)
data = torch.stack([t.cos() * t / 6, t.sin() * t / 6], dim=1) + 0.05 * torch.stack([torch.sin(7 * t), torch.cos(11 * t)], 1)

z, ld = model.f(data[:3])
print(z, ld, sep="\n")
x_rec = model.sample_from(z)
print("max recon err < 1e-5:", (x_rec - data[:3]).abs().max().item() < 1e-5)

x0 = data[5].clone()
J = torch.autograd.functional.jacobian(lambda v: model.f(v.unsqueeze(0))[0].squeeze(0), x0)
sign, logabs = torch.linalg.slogdet(J)
print(J.shape, sign.item(), f"{logabs.item():.4f}", f"{model.f(x0.unsqueeze(0))[1].item():.4f}")
print(f"{torch.logdet(J).item():.4f}", f"{torch.log(torch.det(J).abs()).item():.4f}")

opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(30):
    loss = -model.log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        print(f"step {step:2d} nll {loss.item():.4f}")

with torch.no_grad():
    zs = torch.stack([torch.linspace(-1, 1, 5), torch.linspace(1, -1, 5)], 1)
    xs = model.sample_from(zs)
    print(xs.round(decimals=3))
    print(model.log_prob(xs).round(decimals=3))
