# Writing your own LR scheduler by subclassing torch.optim.lr_scheduler.LRScheduler (warmup + inverse
# sqrt / polynomial decay as in fairseq/HF), plus OneCycleLR and CyclicLR with momentum cycling.
import math
import warnings

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LRScheduler, CyclicLR, OneCycleLR, PolynomialLR


class WarmupInverseSqrt(LRScheduler):
    def __init__(self, optimizer, warmup_steps, last_epoch=-1):
        self.warmup_steps = warmup_steps
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        if step < self.warmup_steps:
            scale = step / self.warmup_steps
        else:
            scale = math.sqrt(self.warmup_steps / step)
        return [base_lr * scale for base_lr in self.base_lrs]


class WarmupPoly(LRScheduler):
    def __init__(self, optimizer, warmup, total, power=2.0, last_epoch=-1):
        self.warmup, self.total, self.power = warmup, total, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        if e < self.warmup:
            return [lr * (e + 1) / self.warmup for lr in self.base_lrs]
        frac = min(1.0, (e - self.warmup) / (self.total - self.warmup))
        return [lr * (1 - frac) ** self.power for lr in self.base_lrs]


model = nn.Linear(3, 2)
opt = torch.optim.Adam([{"params": [model.weight]}, {"params": [model.bias], "lr": 2e-3}], lr=1e-3)
sched = WarmupInverseSqrt(opt, warmup_steps=4)
print(sched.base_lrs, sched.last_epoch, sched.get_last_lr())
out = []
for i in range(10):
    opt.step()
    sched.step()
    out.append(tuple(f"{lr:.2e}" for lr in sched.get_last_lr()))
print(out)
print(sorted(sched.state_dict().keys()))
print(sched.state_dict()["warmup_steps"], sched.state_dict()["_step_count"])

opt = torch.optim.SGD(model.parameters(), lr=0.1)
poly = WarmupPoly(opt, warmup=2, total=8)
print([round(poly.get_last_lr()[0], 5)] + [round((opt.step(), poly.step(), poly.get_last_lr()[0])[2], 5) for _ in range(9)])

# resume a scheduler from last_epoch (needs initial_lr in the groups)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
try:
    WarmupPoly(opt, warmup=2, total=8, last_epoch=3)
except KeyError as e:
    print(type(e).__name__, e)

# OneCycleLR cycles momentum (SGD) / beta1 (Adam) too
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
oc = OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3, anneal_strategy="cos")
rows = []
for i in range(10):
    rows.append((round(opt.param_groups[0]["lr"], 4), round(opt.param_groups[0]["momentum"], 4)))
    opt.step()
    oc.step()
print(rows)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
oc = OneCycleLR(opt, max_lr=0.01, epochs=2, steps_per_epoch=3, three_phase=True, anneal_strategy="linear")
rows = []
for i in range(6):
    rows.append((round(opt.param_groups[0]["lr"], 6), opt.param_groups[0]["betas"]))
    opt.step()
    oc.step()
print(rows)
try:
    oc.step()
except ValueError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
cyc = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
rows = []
for i in range(9):
    opt.step()
    cyc.step()
    rows.append((round(cyc.get_last_lr()[0], 4), round(opt.param_groups[0]["momentum"], 3)))
print(rows)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
try:
    CyclicLR(opt, base_lr=0.01, max_lr=0.1)
except ValueError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
p = PolynomialLR(opt, total_iters=4, power=1.0)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    p.step()
    print([str(x.message)[:60] for x in w])
    opt.step()
    p.step()
    print(round(p.get_last_lr()[0], 4), len(w))
    print([round(v, 4) for v in p.get_lr()], len(w), str(w[-1].message)[:50])
