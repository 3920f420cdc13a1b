# Rational-quadratic spline coupling (Durkan et al. 2019, nflows-style): bin widths/heights via
# softmax + cumsum + F.pad, knot search with torch.searchsorted, derivative softplus, forward and
# inverse spline with the log|dJ|, identity tails outside [-B, B], trained by maximum likelihood.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

B, K = 3.0, 5


def rq_spline(x, w_raw, h_raw, d_raw, inverse=False):
    inside = (x >= -B) & (x <= B)
    widths = F.softmax(w_raw, dim=-1) * 2 * B
    heights = F.softmax(h_raw, dim=-1) * 2 * B
    cumw = F.pad(torch.cumsum(widths, -1), (1, 0), value=0.0) - B
    cumh = F.pad(torch.cumsum(heights, -1), (1, 0), value=0.0) - B
    cumw[..., -1] = B
    cumh[..., -1] = B
    derivs = F.pad(F.softplus(d_raw) + 1e-3, (1, 1), value=1.0)
    xc = x.clamp(-B, B).unsqueeze(-1)
    knots = cumh if inverse else cumw
    idx = (torch.searchsorted(knots[..., 1:-1].contiguous(), xc, right=True)).clamp(0, K - 1)
    g = lambda t: t.gather(-1, idx).squeeze(-1)
    x_k, w_k, y_k, h_k = g(cumw), g(widths), g(cumh), g(heights)
    d_k, d_k1 = g(derivs[..., :-1]), g(derivs[..., 1:])
    s_k = h_k / w_k
    if not inverse:
        xi = (xc.squeeze(-1) - x_k) / w_k
        num = h_k * (s_k * xi ** 2 + d_k * xi * (1 - xi))
        den = s_k + (d_k1 + d_k - 2 * s_k) * xi * (1 - xi)
        y = y_k + num / den
    else:
        yv = xc.squeeze(-1) - y_k
        a = h_k * (s_k - d_k) + yv * (d_k1 + d_k - 2 * s_k)
        b = h_k * d_k - yv * (d_k1 + d_k - 2 * s_k)
        c = -s_k * yv
        xi = 2 * c / (-b - torch.sqrt(b ** 2 - 4 * a * c))
        y = xi * w_k + x_k
        den = s_k + (d_k1 + d_k - 2 * s_k) * xi * (1 - xi)
    dnum = s_k ** 2 * (d_k1 * xi ** 2 + 2 * s_k * xi * (1 - xi) + d_k * (1 - xi) ** 2)
    logdet = torch.log(dnum) - 2 * torch.log(den)
    if inverse:
        logdet = -logdet
    return torch.where(inside, y, x), torch.where(inside, logdet, torch.zeros_like(x))


class SplineCoupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 3 * K - 1))

    def params(self, cond):
        p = self.net(cond)
        return p[..., :K], p[..., K:2 * K], p[..., 2 * K:]

    def forward(self, x, inverse=False):
        a, b = (x[:, 1:], x[:, :1]) if self.flip else (x[:, :1], x[:, 1:])
        w, h, d = self.params(a)
        b2, ld = rq_spline(b.squeeze(-1), w, h, d, inverse=inverse)
        b2 = b2.unsqueeze(-1)
        out = torch.cat([b2, a], 1) if self.flip else torch.cat([a, b2], 1)
        return out, ld


layers = nn.ModuleList([SplineCoupling(i % 2 == 1) for i in range(3)])
with torch.no_grad():
    for i, p in enumerate(layers.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).reshape(p.shape))

t = torch.linspace(-1, 1, 96)
data = torch.stack([2.0 * t, 1.5 * torch.sin(3 * t) + 0.2 * torch.cos(17 * t)], 1)
data[::16] *= 1.8    # a few points outside the spline window use the identity tails


def log_prob(x):
    total = torch.zeros(x.shape[0])
    for layer in layers:
        x, ld = layer(x)
        total = total + ld
    return (-0.5 * x ** 2 - 0.5 * math.log(2 * math.pi)).sum(1) + total, x


lp, z = log_prob(data[:4])
print(lp, z, sep="\n")
x = z
for layer in reversed(layers):
    x, _ = layer(x, inverse=True)
print("inverse ok:", torch.allclose(x, data[:4], atol=1e-4))
print(torch.searchsorted(torch.tensor([-1.0, 0.0, 1.0]), torch.tensor([[-2.0, 0.0, 0.5, 3.0]]), right=True))
opt = torch.optim.Adam(layers.parameters(), lr=3e-3)
for step in range(20):
    loss = -log_prob(data)[0].mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step:2d} nll {loss.item():.3f}")
print([p.grad.norm().item() > 0 for p in layers[0].parameters()])
