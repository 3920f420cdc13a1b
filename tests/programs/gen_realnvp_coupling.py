# Normalizing flows with affine coupling layers (RealNVP / NICE / Glow style): alternating
# masks, s = tanh-scaled net output, log-determinants, exact inverse, ActNorm with data-dependent
# init, invertible 1x1 "conv" via slogdet, and log-likelihood under a standard normal prior.
import math
import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, dim, mask, hidden=8):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * dim))
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        x_masked = x * self.mask
        s, t = self.net(x_masked).chunk(2, dim=1)
        s = self.scale * torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        y = x_masked + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        y_masked = y * self.mask
        s, t = self.net(y_masked).chunk(2, dim=1)
        s = self.scale * torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return y_masked + (1 - self.mask) * ((y - t) * torch.exp(-s))


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, dim))
        self.log_scale = nn.Parameter(torch.zeros(1, dim))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if self.initialized.item() == 0:
            with torch.no_grad():
                self.loc.data.copy_(-x.mean(0, keepdim=True))
                self.log_scale.data.copy_(-torch.log(x.std(0, keepdim=True) + 1e-6))
                self.initialized.fill_(1)
        return (x + self.loc) * torch.exp(self.log_scale), self.log_scale.sum().expand(x.size(0))


class Invertible1x1(nn.Module):
    def __init__(self, dim):
        super().__init__()
        w = torch.linalg.qr(torch.eye(dim) + 0.5 * torch.cos(torch.arange(dim * dim, dtype=torch.float32) ** 2 * 0.37).view(dim, dim))[0]
        self.weight = nn.Parameter(w)

    def forward(self, x):
        logdet = torch.slogdet(self.weight)[1]
        return x @ self.weight.T, logdet.expand(x.size(0))

    def inverse(self, y):
        return y @ torch.inverse(self.weight).T


dim = 4
masks = [torch.tensor([1., 0., 1., 0.]), torch.tensor([0., 1., 0., 1.])]
flows = nn.ModuleList([ActNorm(dim), AffineCoupling(dim, masks[0]), Invertible1x1(dim), AffineCoupling(dim, masks[1])])
with torch.no_grad():
    for i, (name, p) in enumerate(flows.named_parameters()):
        if ".net." in name:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view_as(p) * 0.4)
print(flows)
print([n for n, _ in flows.named_buffers()])
x = torch.stack([torch.sin(torch.arange(8.) * 0.9 + k) * (k + 1) for k in range(dim)], dim=1)
print(x.shape, torch.allclose(flows[2].weight @ flows[2].weight.T, torch.eye(dim), atol=1e-6), flows[2].weight[0])
prior = torch.distributions.Normal(torch.zeros(dim), torch.ones(dim))


def log_prob(x):
    log_det = torch.zeros(x.size(0))
    for f in flows:
        x, ld = f(x)
        log_det = log_det + ld
    return prior.log_prob(x).sum(1) + log_det, x


lp, z = log_prob(x)
print(flows[0].initialized, flows[0].loc, flows[0].log_scale, sep="\n")
print(lp, z.mean(0), z.std(0), sep="\n")
manual = -0.5 * (z ** 2).sum(1) - 0.5 * dim * math.log(2 * math.pi)
print(torch.allclose(manual, prior.log_prob(z).sum(-1)))
# inverse pass
h = z
for f in reversed(flows):
    if isinstance(f, ActNorm):
        h = h * torch.exp(-f.log_scale) - f.loc
    else:
        h = f.inverse(h)
print(torch.allclose(h, x, atol=1e-4), (h - x).abs().max().item() < 1e-4)

opt = torch.optim.Adam(flows.parameters(), lr=1e-2)
for step in range(3):
    opt.zero_grad()
    lp, _ = log_prob(x)
    loss = -lp.mean()
    loss.backward()
    opt.step()
    bpd = loss / (dim * math.log(2))
    print(f"step {step} nll {loss.item():.5f} bpd {bpd.item():.5f} scale.grad {flows[1].scale.grad.item():.5f}")
print(flows[2].weight.grad.shape, torch.linalg.slogdet(flows[2].weight))
with torch.no_grad():
    zs = torch.linspace(-2, 2, 8).view(2, 4)
    for f in reversed(flows):
        zs = zs * torch.exp(-f.log_scale) - f.loc if isinstance(f, ActNorm) else f.inverse(zs)
print(zs)
