# LR schedule plumbing from training scripts: LambdaLR warmup+cosine, SequentialLR(LinearLR ->
# CosineAnnealingLR), ChainedScheduler, ReduceLROnPlateau on a val loss, and state_dict round trips.
import io
import math

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, CosineAnnealingLR, ExponentialLR,
                                      LambdaLR, LinearLR, ReduceLROnPlateau, SequentialLR)

model = nn.Linear(2, 1)


def lrs(opt):
    return [round(g["lr"], 6) for g in opt.param_groups]


# 1) warmup + cosine with LambdaLR, two groups with different base lrs
opt = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.01}], lr=0.1, momentum=0.9)
warmup, total = 3, 12


def lr_lambda(step):
    if step < warmup:
        return float(step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * (1.0 + math.cos(math.pi * progress))


sched = LambdaLR(opt, lr_lambda)
print("init", lrs(opt), [g["initial_lr"] for g in opt.param_groups])
row = []
for step in range(total):
    opt.step()
    sched.step()
    row.append(lrs(opt)[0])
print("lambda", row)
print("state keys", sorted(sched.state_dict().keys()), sched.last_epoch)

# 2) SequentialLR: linear warmup then cosine
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
s1 = LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=4)
s2 = CosineAnnealingLR(opt, T_max=6, eta_min=1e-5)
seq = SequentialLR(opt, schedulers=[s1, s2], milestones=[4])
row = []
for step in range(12):
    opt.step()
    seq.step()
    row.append(f"{seq.get_last_lr()[0]:.6f}")
print("sequential", row)
sd = seq.state_dict()
print(sorted(sd.keys()), sd["_milestones"], sd["last_epoch"], len(sd["_schedulers"]))

# 3) ChainedScheduler: multiplicative effects stack
opt = torch.optim.SGD(model.parameters(), lr=1.0)
chain = ChainedScheduler([ConstantLR(opt, factor=0.5, total_iters=3), ExponentialLR(opt, gamma=0.9)])
row = []
for step in range(6):
    opt.step()
    chain.step()
    row.append(round(chain.get_last_lr()[0], 5))
print("chained", row)

# 4) ReduceLROnPlateau driven by a validation loss that stalls
opt = torch.optim.SGD(model.parameters(), lr=0.1)
plateau = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, threshold=1e-3, cooldown=1, min_lr=0.01)
val_losses = [1.0, 0.9, 0.85, 0.85, 0.85, 0.851, 0.849, 0.849, 0.849, 0.849, 0.849, 0.849, 0.849, 0.849]
for epoch, v in enumerate(val_losses):
    opt.step()
    plateau.step(v)
    print(epoch, v, lrs(opt), plateau.num_bad_epochs, plateau.cooldown_counter, plateau.get_last_lr())
print(sorted(k for k in plateau.state_dict().keys()))
print(plateau.best, plateau.mode, plateau.threshold_mode)

# round trip the scheduler + optimizer through a BytesIO checkpoint
buf = io.BytesIO()
torch.save({"opt": opt.state_dict(), "sched": plateau.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=False)
opt2 = torch.optim.SGD(model.parameters(), lr=0.1)
plateau2 = ReduceLROnPlateau(opt2, factor=0.5, patience=2)
opt2.load_state_dict(ckpt["opt"])
plateau2.load_state_dict(ckpt["sched"])
print(lrs(opt2), plateau2.best, plateau2.num_bad_epochs, plateau2.last_epoch, plateau2.min_lrs)

try:
    SequentialLR(opt, schedulers=[s1, s2], milestones=[4])
except ValueError as e:
    print(type(e).__name__, e)
try:
    ReduceLROnPlateau(opt, factor=1.5)
except ValueError as e:
    print(type(e).__name__, e)
