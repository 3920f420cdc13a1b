# N-BEATS as reimplemented in blog posts: a stack of blocks whose FC trunk outputs theta,
# projected onto fixed bases registered as buffers (polynomial trend from linspace powers,
# Fourier seasonality from cos/sin), doubly residual stacking (x - backcast, sum of forecasts),
# and an interpretable decomposition printed per stack after a short training run.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def trend_basis(degree, length):
    t = torch.linspace(0, 1, length)
    return torch.stack([t ** i for i in range(degree + 1)])          # [p, length]


def seasonality_basis(harmonics, length):
    t = torch.arange(length, dtype=torch.float32) / length
    freqs = torch.arange(1, harmonics + 1, dtype=torch.float32)
    ang = 2 * math.pi * freqs[:, None] * t[None, :]
    return torch.cat([torch.ones(1, length), torch.cos(ang), torch.sin(ang)], dim=0)


class Block(nn.Module):
    def __init__(self, backcast, horizon, kind, hidden=32):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(backcast, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        if kind == "trend":
            bb, fb = trend_basis(2, backcast), trend_basis(2, horizon)
        else:
            bb, fb = seasonality_basis(3, backcast), seasonality_basis(3, horizon)
        self.register_buffer("b_basis", bb)
        self.register_buffer("f_basis", fb)
        self.theta_b = nn.Linear(hidden, bb.shape[0], bias=False)
        self.theta_f = nn.Linear(hidden, fb.shape[0], bias=False)

    def forward(self, x):
        h = self.fc(x)
        return self.theta_b(h) @ self.b_basis, torch.einsum("bp,pt->bt", self.theta_f(h), self.f_basis)


class NBeats(nn.Module):
    def __init__(self, backcast, horizon):
        super().__init__()
        self.stacks = nn.ModuleDict({
            "trend": nn.ModuleList([Block(backcast, horizon, "trend") for _ in range(2)]),
            "seasonality": nn.ModuleList([Block(backcast, horizon, "season") for _ in range(2)]),
        })

    def forward(self, x, return_parts=False):
        residual, forecast, parts = x, 0, {}
        for name, blocks in self.stacks.items():
            stack_fc = torch.zeros(x.shape[0], blocks[0].f_basis.shape[1])
            for block in blocks:
                b, f = block(residual)
                residual = residual - b
                stack_fc = stack_fc + f
            parts[name] = stack_fc
            forecast = forecast + stack_fc
        return (forecast, parts) if return_parts else forecast


torch.set_printoptions(precision=4, sci_mode=False)
L, H = 24, 6
t = torch.arange(150, dtype=torch.float32)
y = 0.05 * t + torch.sin(2 * math.pi * t / 12) + 0.3 * torch.cos(2 * math.pi * t / 6)
win = y.unfold(0, L + H, 3)
X, Y = win[:, :L], win[:, L:]
print("basis shapes", tuple(trend_basis(2, L).shape), tuple(seasonality_basis(3, H).shape))
print(trend_basis(2, 5))

model = NBeats(L, H)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + 0.5 * i).reshape(p.shape) * 0.15)
print("buffers", [n for n, _ in model.named_buffers()][:4])
print("n params", sum(p.numel() for p in model.parameters()))

opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
for epoch in range(30):
    opt.zero_grad()
    pred = model(X)
    loss = F.mse_loss(pred, Y)
    loss.backward()
    opt.step()
    if epoch % 6 == 0 or epoch == 29:
        print(f"epoch {epoch:2d} mse {loss.item():.4f}")

model.eval()
with torch.no_grad():
    fc, parts = model(X[-1:], return_parts=True)
print("forecast", fc.round(decimals=2))
print("target  ", Y[-1:])
for k, v in parts.items():
    print(k, v.round(decimals=2))
print("sum check", torch.allclose(parts["trend"] + parts["seasonality"], fc))
