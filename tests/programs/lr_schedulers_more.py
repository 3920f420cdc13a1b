# More schedulers users reach for: MultiStepLR, ReduceLROnPlateau, OneCycleLR, LinearLR + SequentialLR.
import torch
from torch.optim import lr_scheduler

model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
lrs = []
for _ in range(6):
    opt.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print(lrs)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
plateau = lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for val_loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]:
    plateau.step(val_loss)
    print(round(opt.param_groups[0]["lr"], 6), end=" ")
print()

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
onecycle = lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
seq = []
for _ in range(10):
    opt.step()
    seq.append(round(opt.param_groups[0]["lr"], 4))
    onecycle.step()
print(seq)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
warmup = lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
decay = lr_scheduler.ExponentialLR(opt, gamma=0.5)
both = lr_scheduler.SequentialLR(opt, schedulers=[warmup, decay], milestones=[3])
seq = []
for _ in range(6):
    opt.step()
    seq.append(round(opt.param_groups[0]["lr"], 6))
    both.step()
print(seq)
