# Fourier-feature positional encoding (Tancik et al.): gamma(v) = [cos(2 pi v B), sin(2 pi v B)]
# with a fixed deterministic B, fitting a 1-D signal with an MLP, Adam + CosineAnnealingLR.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class FourierFeatures(nn.Module):
    def __init__(self, in_dim, n_freq, scale):
        super().__init__()
        B = torch.linspace(-1, 1, in_dim * n_freq).reshape(in_dim, n_freq) * scale
        self.register_buffer("B", B)

    def forward(self, v):
        proj = 2 * math.pi * v @ self.B
        return torch.cat([torch.cos(proj), torch.sin(proj)], dim=-1)


class FFN(nn.Module):
    def __init__(self, n_freq=8, hidden=32, scale=4.0):
        super().__init__()
        self.enc = FourierFeatures(1, n_freq, scale)
        self.layers = nn.ModuleList([nn.Linear(2 * n_freq, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, 1)])
        with torch.no_grad():
            for i, lin in enumerate(self.layers):
                n = lin.weight.numel()
                lin.weight.copy_(torch.cos(torch.arange(n, dtype=torch.float32) * 0.77 + i).view_as(lin.weight)
                                 / math.sqrt(lin.in_features))
                lin.bias.copy_(torch.linspace(-0.1, 0.1, lin.out_features))

    def forward(self, x):
        h = self.enc(x)
        for lin in self.layers[:-1]:
            h = F.relu(lin(h))
        return self.layers[-1](h)


x = torch.linspace(0, 1, 64).unsqueeze(-1)
y = torch.sin(2 * math.pi * 3 * x) + 0.5 * torch.sin(2 * math.pi * 7 * x)
model = FFN()
print("buffers:", [name for name, _ in model.named_buffers()])
print("state_dict keys:", list(model.state_dict().keys()))
feat = model.enc(x)
print("features", tuple(feat.shape), f"{feat.pow(2).sum(-1).mean().item():.4f}")

opt = torch.optim.Adam(model.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=40, eta_min=1e-4)
losses = []
for step in range(40):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    sched.step()
    losses.append(loss.item())
    if step % 8 == 0 or step == 39:
        print(f"step {step:2d} mse {loss.item():.4f} lr {opt.param_groups[0]['lr']:.5f}")
print("loss decreased:", losses[-1] < losses[0])
with torch.no_grad():
    test = torch.tensor([[0.1], [0.25], [0.5]])
    print("pred", model(test).squeeze(-1).round(decimals=2))
