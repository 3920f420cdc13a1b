# Saving and restoring learning-rate schedulers with the optimizer: the scheduler state_dict
# contents for common schedulers, and a warmup+cosine SequentialLR resumed mid-way giving the
# same lr sequence as an uninterrupted run.
import io

import torch
import torch.nn as nn
from torch.optim import lr_scheduler as S


def make(kind):
    opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
    if kind == "seq":
        warm = S.LinearLR(opt, start_factor=0.1, total_iters=3)
        cos = S.CosineAnnealingLR(opt, T_max=6, eta_min=0.001)
        return opt, S.SequentialLR(opt, [warm, cos], milestones=[3])
    if kind == "onecycle":
        return opt, S.OneCycleLR(opt, max_lr=0.5, total_steps=10)
    if kind == "plateau":
        return opt, S.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
    if kind == "warm":
        return opt, S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
    if kind == "multistep":
        return opt, S.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)


def step(opt, sched, metric=None):
    opt.step()
    if metric is None:
        sched.step()
    else:
        sched.step(metric)


for kind in ["multistep", "warm", "onecycle"]:
    opt, sched = make(kind)
    for _ in range(4):
        step(opt, sched)
    sd = sched.state_dict()
    print(kind, sorted(sd))
    print({k: (round(v, 6) if isinstance(v, float) else v) for k, v in sd.items()
           if k in ("last_epoch", "_step_count", "T_cur", "T_i", "milestones", "total_steps", "base_lrs")})

opt, sched = make("plateau")
for loss in [1.0, 0.9, 0.95, 0.97, 0.99, 0.98]:
    step(opt, sched, loss)
sd = sched.state_dict()
print(sorted(sd), sd["best"], sd["num_bad_epochs"], sd["cooldown_counter"], sched.get_last_lr())

opt, sched = make("seq")
full = []
for _ in range(9):
    step(opt, sched)
    full.append(round(sched.get_last_lr()[0], 6))
print(full)

opt, sched = make("seq")
for _ in range(5):
    step(opt, sched)
buf = io.BytesIO()
torch.save({"opt": opt.state_dict(), "sched": sched.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck["sched"]), ck["sched"]["_milestones"], ck["sched"]["last_epoch"])
print([sorted(s) for s in ck["sched"]["_schedulers"]])
opt2, sched2 = make("seq")
opt2.load_state_dict(ck["opt"])
sched2.load_state_dict(ck["sched"])
print(round(opt2.param_groups[0]["lr"], 6), round(sched2.get_last_lr()[0], 6))
rest = []
for _ in range(4):
    step(opt2, sched2)
    rest.append(round(sched2.get_last_lr()[0], 6))
print(rest, rest == full[5:])
