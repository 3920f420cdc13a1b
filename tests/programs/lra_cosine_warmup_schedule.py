# The nanoGPT get_lr cosine schedule with linear warmup, the HF get_cosine_schedule_with_warmup
# LambdaLR, and the built-in LinearLR + CosineAnnealingLR under SequentialLR; printed lrs must agree.
import math

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR, LinearLR, SequentialLR

warmup_iters, lr_decay_iters, max_lr, min_lr = 4, 16, 6e-4, 6e-5


def get_lr(it):
    if it < warmup_iters:
        return max_lr * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (max_lr - min_lr)


def get_cosine_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, num_cycles=0.5):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        progress = float(current_step - num_warmup_steps) / float(max(1, num_training_steps - num_warmup_steps))
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(num_cycles) * 2.0 * progress)))
    return LambdaLR(optimizer, lr_lambda)


model = nn.Linear(3, 1)
opt = torch.optim.AdamW(model.parameters(), lr=max_lr)
print([f"{get_lr(it):.3e}" for it in range(0, 20, 3)])
for it in range(3):
    for group in opt.param_groups:
        group["lr"] = get_lr(it)
print(opt.param_groups[0]["lr"])

opt2 = torch.optim.AdamW(model.parameters(), lr=1e-3)
sched = get_cosine_schedule_with_warmup(opt2, 3, 12)
lrs = []
for step in range(12):
    opt2.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
print([f"{lr:.6f}" for lr in lrs])
print(sched.state_dict()["last_epoch"], sched.state_dict()["_step_count"])

opt3 = torch.optim.SGD(model.parameters(), lr=0.1)
warm = LinearLR(opt3, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = CosineAnnealingLR(opt3, T_max=8, eta_min=0.01)
seq = SequentialLR(opt3, schedulers=[warm, cos], milestones=[3])
out = []
for step in range(12):
    out.append(round(opt3.param_groups[0]["lr"], 6))
    opt3.step()
    seq.step()
print(out)
print(type(seq).__name__, seq.get_last_lr())

# training with warmup on a tiny regression
x = torch.linspace(-1, 1, 16).view(8, 2)
y = x.sum(-1, keepdim=True) * 0.5 + 0.1
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(0.0)
    model.bias.fill_(0.0)
opt = torch.optim.AdamW(model.parameters(), lr=0.1, weight_decay=0.01)
sched = get_cosine_schedule_with_warmup(opt, 5, 30)
for step in range(30):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 6 == 0:
        print(step, f"{loss.item():.5f}", f"{sched.get_last_lr()[0]:.5f}")
print(model.weight.round(decimals=3), model.bias.round(decimals=3))
