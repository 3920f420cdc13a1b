# Warmup + cosine learning-rate schedules the way training libraries build them:
# LambdaLR with a closure, SequentialLR(LinearLR, CosineAnnealingLR), state_dict round trips.
import math

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import (CosineAnnealingLR, LambdaLR, LinearLR, SequentialLR,
                                      OneCycleLR, CosineAnnealingWarmRestarts, ConstantLR)


def get_cosine_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps,
                                    num_cycles=0.5, last_epoch=-1):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        progress = float(current_step - num_warmup_steps) / float(max(1, num_training_steps - num_warmup_steps))
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(num_cycles) * 2.0 * progress)))
    return LambdaLR(optimizer, lr_lambda, last_epoch)


model = nn.Linear(2, 1)
opt = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.5}], lr=0.1, momentum=0.9)
sched = get_cosine_schedule_with_warmup(opt, 3, 10)
lrs = []
for step in range(10):
    opt.step()
    sched.step()
    lrs.append([round(lr, 5) for lr in sched.get_last_lr()])
print(lrs)
print([g["initial_lr"] for g in opt.param_groups], sched.last_epoch)
sd = sched.state_dict()
print(sorted(sd.keys()), sd["lr_lambdas"], sd["base_lrs"])

opt2 = torch.optim.AdamW(model.parameters(), lr=1e-3)
warm = LinearLR(opt2, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = CosineAnnealingLR(opt2, T_max=5, eta_min=1e-5)
seq = SequentialLR(opt2, schedulers=[warm, cos], milestones=[3])
out = []
for epoch in range(9):
    out.append(f"{opt2.param_groups[0]['lr']:.6f}")
    opt2.step()
    seq.step()
print(out)
print(seq.last_epoch, type(seq.state_dict()["_schedulers"]).__name__, len(seq.state_dict()["_schedulers"]))

opt3 = torch.optim.SGD(model.parameters(), lr=0.1)
const = ConstantLR(opt3, factor=0.5, total_iters=2)
print([opt3.param_groups[0]["lr"]] + [(opt3.step(), const.step(), opt3.param_groups[0]["lr"])[2] for _ in range(3)])

opt4 = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
oc = OneCycleLR(opt4, max_lr=1.0, total_steps=6)
vals = []
for _ in range(6):
    vals.append((round(opt4.param_groups[0]["lr"], 5), round(opt4.param_groups[0]["momentum"], 5)))
    opt4.step()
    oc.step()
print(vals)
try:
    opt4.step()
    oc.step()
except ValueError as e:
    print(type(e).__name__, e)

opt5 = torch.optim.SGD(model.parameters(), lr=0.1)
wr = CosineAnnealingWarmRestarts(opt5, T_0=3, T_mult=2, eta_min=0.0)
print([round(x, 4) for x in [wr.get_last_lr()[0]] + [(opt5.step(), wr.step(), wr.get_last_lr()[0])[2] for _ in range(9)]])
print(wr.T_i, wr.T_cur)

try:
    LambdaLR(opt5, [lambda e: 1.0, lambda e: 2.0])
except ValueError as e:
    print(type(e).__name__, e)


class WarmupFactor:
    def __init__(self, warmup):
        self.warmup = warmup

    def __call__(self, step):
        return min(1.0, (step + 1) / self.warmup)


opt6 = torch.optim.SGD(model.parameters(), lr=1.0)
s6 = LambdaLR(opt6, WarmupFactor(4))
for _ in range(2):
    opt6.step()
    s6.step()
s7 = LambdaLR(torch.optim.SGD(model.parameters(), lr=1.0), WarmupFactor(10))
s7.load_state_dict(s6.state_dict())
print(s6.state_dict()["lr_lambdas"], s7.lr_lambdas[0].warmup, s7.last_epoch, s7.get_last_lr())
print(type(s6).__name__, isinstance(s6, torch.optim.lr_scheduler.LRScheduler))
