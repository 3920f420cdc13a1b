# Housekeeping around an INR fit: weight init through model.apply, gradient clipping,
# OneCycleLR, checkpoint to BytesIO and reload into a fresh model, and ReduceLROnPlateau
# during a fine-tuning phase; parameters frozen with requires_grad_(False).
import io
import math

import torch
import torch.nn as nn


class Sine(nn.Module):
    def __init__(self, w0=5.0):
        super().__init__()
        self.w0 = w0

    def forward(self, x):
        return torch.sin(self.w0 * x)

    def extra_repr(self):
        return f"w0={self.w0}"


def make():
    return nn.Sequential(nn.Linear(2, 24), Sine(), nn.Linear(24, 24), Sine(), nn.Linear(24, 1))


@torch.no_grad()
def siren_init(m):
    if isinstance(m, nn.Linear):
        bound = math.sqrt(6 / m.in_features) / 5.0
        k = torch.arange(m.weight.numel(), dtype=torch.float32).view_as(m.weight)
        m.weight.copy_(bound * torch.sin(k * 0.913 + m.in_features))
        m.bias.copy_(bound * torch.cos(torch.arange(m.out_features, dtype=torch.float32)))


model = make()
model.apply(siren_init)
print(model)
s = torch.linspace(-1, 1, 10)
xy = torch.stack(torch.meshgrid(s, s, indexing="ij"), -1).view(-1, 2)
target = (torch.sin(2 * xy[:, 0]) * torch.exp(-xy[:, 1] ** 2)).unsqueeze(1)

opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=20, pct_start=0.3)
for step in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(xy), target)
    loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.05)
    opt.step()
    sched.step()
    if step % 4 == 0 or step == 19:
        print(f"step {step:2d} loss {loss.item():.5f} grad-norm {total.item():.4f} lr {sched.get_last_lr()[0]:.5f}")

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf)
fresh = make()
print(fresh.load_state_dict(ckpt["model"]))
print("reloaded equal:", all(torch.equal(a, b) for a, b in zip(model.parameters(), fresh.parameters())))
print("opt state keys:", sorted(ckpt["opt"].keys()), len(ckpt["opt"]["state"]))

for p in fresh[0].parameters():
    p.requires_grad_(False)
trainable = [p for p in fresh.parameters() if p.requires_grad]
print("trainable tensors:", len(trainable), "of", len(list(fresh.parameters())))
opt2 = torch.optim.SGD(trainable, lr=0.05, momentum=0.9)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt2, mode="min", factor=0.5, patience=1)
for epoch in range(8):
    opt2.zero_grad()
    loss = nn.functional.mse_loss(fresh(xy), target)
    loss.backward()
    opt2.step()
    plateau.step(round(loss.item(), 3))
    print(f"ft {epoch} loss {loss.item():.5f} lr {opt2.param_groups[0]['lr']:.4f}")
print("frozen grad:", fresh[0].weight.grad)
