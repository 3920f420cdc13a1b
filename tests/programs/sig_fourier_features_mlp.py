# Fourier feature networks (Tancik et al.): map coordinates through sin/cos of a fixed
# projection 2*pi*B*x before an MLP to fit a 1-d signal, and a spectral loss via rfft.
import math
import torch
import torch.nn as nn


class FourierFeatures(nn.Module):
    def __init__(self, in_dim, n_freq, scale):
        super().__init__()
        idx = torch.arange(in_dim * n_freq, dtype=torch.float32).reshape(in_dim, n_freq)
        self.register_buffer("B", scale * torch.sin(idx * 1.7 + 0.3))

    def forward(self, x):
        proj = 2 * math.pi * x @ self.B
        return torch.cat([torch.sin(proj), torch.cos(proj)], dim=-1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.ff = FourierFeatures(1, 16, 4.0)
        self.mlp = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.mlp(self.ff(x))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.mlp.parameters()):
        n = p.numel()
        p.copy_((torch.cos(torch.arange(n, dtype=torch.float32) * (0.7 + i)) * 0.2).reshape(p.shape))

x = torch.linspace(0, 1, 128).unsqueeze(1)
y = torch.sin(2 * math.pi * 3 * x) + 0.5 * torch.sign(torch.sin(2 * math.pi * 7 * x))
print("buffers:", [k for k, _ in net.named_buffers()])
print("features:", net.ff(x).shape)

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
first = None
for step in range(30):
    pred = net(x)
    mse = ((pred - y) ** 2).mean()
    spec_loss = (torch.fft.rfft(pred.squeeze(1)).abs() - torch.fft.rfft(y.squeeze(1)).abs()).pow(2).mean()
    loss = mse + 1e-3 * spec_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    first = first if first is not None else loss.item()
    if step % 10 == 0:
        print(f"step {step} mse {mse.item():.3f}")
print("decreased:", loss.item() < first)

with torch.no_grad():
    err = torch.fft.rfft((net(x) - y).squeeze(1))
    print("low-freq error energy > 0:", err[:5].abs().sum().item() > 0)
    print("state dict:", list(net.state_dict().keys()))
