# TSMixer (Google, 2023) as in its PyTorch ports: RevIN-style instance normalisation, time-mixing
# MLPs applied over the time axis via transpose(1, 2), feature-mixing MLPs over channels, a
# BatchNorm2d applied to the [B, L, C] activations through unsqueeze(1) ("2-D norm" variant),
# residual connections, and a temporal projection Linear(L -> H) on the transposed output.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


class TimeMix(nn.Module):
    def __init__(self, L, C, dropout=0.0):
        super().__init__()
        self.norm = nn.BatchNorm2d(1)
        self.fc = nn.Linear(L, L)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):                        # [B, L, C]
        y = self.norm(x.unsqueeze(1)).squeeze(1)
        y = F.relu(self.fc(y.transpose(1, 2))).transpose(1, 2)
        return x + self.drop(y)


class FeatureMix(nn.Module):
    def __init__(self, C, hidden, dropout=0.0):
        super().__init__()
        self.norm = nn.LayerNorm(C)
        self.fc1, self.fc2 = nn.Linear(C, hidden), nn.Linear(hidden, C)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        y = self.fc2(self.drop(F.gelu(self.fc1(self.norm(x)))))
        return x + self.drop(y)


class TSMixer(nn.Module):
    def __init__(self, L, H, C, n_blocks=2, hidden=16):
        super().__init__()
        self.blocks = nn.Sequential(*[nn.Sequential(TimeMix(L, C), FeatureMix(C, hidden)) for _ in range(n_blocks)])
        self.temporal = nn.Linear(L, H)

    def forward(self, x):
        mean = x.mean(1, keepdim=True)
        std = torch.sqrt(x.var(1, keepdim=True, unbiased=False) + 1e-5)
        x = (x - mean) / std
        x = self.blocks(x)
        y = self.temporal(x.transpose(1, 2)).transpose(1, 2)
        return y * std + mean


L, H, C = 24, 6, 3
t = torch.arange(200, dtype=torch.float32)
data = torch.stack([torch.sin(t / 5) * 2 + 5, torch.cos(t / 8) + 0.01 * t, torch.sin(t / 5) * torch.cos(t / 11)], 1)
win = data.unfold(0, L + H, 5).permute(0, 2, 1)
X, Y = win[:, :L], win[:, L:]
print("X", tuple(X.shape), "Y", tuple(Y.shape))
model = TSMixer(L, H, C)
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        if "norm" in n:
            continue
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).reshape(p.shape) * (0.5 / p.shape[-1] ** 0.5))
print("buffers", [n for n, _ in model.named_buffers()][:3])
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=30, pct_start=0.3)
for step in range(30):
    model.train()
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} mse {loss.item():.4f} lr {sched.get_last_lr()[0]:.6f}")
bn = model.blocks[0][0].norm
print("bn running", bn.running_mean, bn.running_var, bn.num_batches_tracked)
model.eval()
with torch.no_grad():
    pred = model(X[-1:])
    mae = (pred - Y[-1:]).abs().mean(dim=(0, 1))
print("pred", pred[0, :3])
print("per-channel MAE", mae)
