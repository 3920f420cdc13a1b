# SIREN fitting a small 2-D image on an 'xy' meshgrid: sine layers with omega_0, the
# SIREN init bounds written under no_grad from a deterministic formula, Adam + StepLR.
import math

import torch
import torch.nn as nn


class SineLayer(nn.Module):
    def __init__(self, in_f, out_f, is_first=False, omega_0=30.0):
        super().__init__()
        self.omega_0 = omega_0
        self.is_first = is_first
        self.linear = nn.Linear(in_f, out_f)
        self.init_weights()

    def init_weights(self):
        in_f = self.linear.in_features
        bound = 1 / in_f if self.is_first else math.sqrt(6 / in_f) / self.omega_0
        with torch.no_grad():
            w = self.linear.weight
            t = torch.arange(w.numel(), dtype=torch.float32).reshape(w.shape)
            w.copy_(torch.sin(t * 1.37) * bound)
            self.linear.bias.copy_(torch.cos(torch.arange(out_f := w.shape[0], dtype=torch.float32) * 2.1) * bound)

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self, hidden=32, layers=2):
        super().__init__()
        self.net = nn.ModuleList([SineLayer(2, hidden, is_first=True)])
        for _ in range(layers):
            self.net.append(SineLayer(hidden, hidden))
        self.final = nn.Linear(hidden, 1)
        with torch.no_grad():
            b = math.sqrt(6 / hidden) / 30.0
            self.final.weight.copy_(torch.cos(torch.arange(hidden, dtype=torch.float32)).unsqueeze(0) * b)
            self.final.bias.fill_(0.1)

    def forward(self, coords):
        x = coords
        for layer in self.net:
            x = layer(x)
        return self.final(x)


H, W = 12, 16
xs = torch.linspace(-1, 1, W)
ys = torch.linspace(-1, 1, H)
gx, gy = torch.meshgrid(xs, ys, indexing="xy")
print("grid", tuple(gx.shape), tuple(gy.shape))
coords = torch.stack([gx, gy], dim=-1).reshape(-1, 2)
print("coords", tuple(coords.shape), coords[:3].tolist())
img = (torch.sin(3 * gx + 0.5) * torch.cos(2 * gy) + 0.25 * gx).reshape(-1, 1)

model = Siren()
print(model)
print("n params:", sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for step in range(30):
    opt.zero_grad()
    out = model(coords)
    loss = ((out - img) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    if step % 5 == 0:
        psnr = -10 * torch.log10(loss.detach())
        print(f"step {step:2d} loss {loss.item():.5f} psnr {psnr.item():.2f} lr {sched.get_last_lr()[0]:.2e}")

with torch.no_grad():
    rec = model(coords).reshape(H, W)
print("recon shape", tuple(rec.shape), "range", f"{rec.min().item():.3f}", f"{rec.max().item():.3f}")
print("first-layer grad norm", f"{model.net[0].linear.weight.grad.norm().item():.4f}")
