# A small 1-D conv autoencoder denoiser trained on synthetic chirps with deterministic "noise",
# using Conv1d/ConvTranspose1d/BatchNorm1d/AvgPool1d + Upsample, Adam, and a StepLR schedule.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

L = 64
t = torch.linspace(0, 1, L)
clean = torch.stack([torch.sin(2 * math.pi * (f0 * t + 4 * t * t)) for f0 in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5)]).unsqueeze(1)
noise = 0.3 * torch.sin(t * 97.0 + torch.arange(6).view(6, 1, 1) * 1.7) * torch.cos(t * 41.0)
noisy = clean + noise
print(clean.shape, noisy.shape, f"snr {10 * torch.log10(clean.pow(2).mean() / noise.pow(2).mean()).item():.2f} dB")

class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.BatchNorm1d(8), nn.ReLU(), nn.AvgPool1d(2),
                                 nn.Conv1d(8, 8, 3, padding=1, dilation=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2, mode="linear", align_corners=False),
                                 nn.Conv1d(8, 8, 3, padding="same"), nn.ReLU(),
                                 nn.ConvTranspose1d(8, 1, 3, padding=1))

    def forward(self, x):
        return x + self.dec(self.enc(x))

model = Denoiser()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        if p.dim() > 1:
            fan_in = p[0].numel()
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape) / math.sqrt(fan_in))
        else:
            p.copy_(torch.linspace(-0.1, 0.1, p.numel()))
print(model)
print([k for k in model.state_dict().keys()])

loader = DataLoader(TensorDataset(noisy, clean), batch_size=3, shuffle=False)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
first = None
for epoch in range(20):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = F.l1_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    first = total if first is None else first
    if epoch % 5 == 0:
        print(epoch, f"{total / len(loader):.3f}", sched.get_last_lr())
print("improved:", total < first)
model.eval()
with torch.no_grad():
    out = model(noisy)
print(out.shape, model.enc[1].running_mean.shape, model.enc[1].num_batches_tracked)
print("eval l1 < noisy l1:", F.l1_loss(out, clean).item() < F.l1_loss(noisy, clean).item())
