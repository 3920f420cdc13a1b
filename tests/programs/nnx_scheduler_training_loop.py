# Schedulers inside a real training loop, printing get_last_lr() each step: LambdaLR warmup,
# MultiplicativeLR, CosineAnnealingWarmRestarts stepped with fractional epochs (the documented
# `scheduler.step(epoch + i / iters)` idiom), OneCycleLR per batch (and stepping past the end),
# ReduceLROnPlateau on a validation loss, and scheduler state_dict contents.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import lr_scheduler

X = torch.linspace(-1, 1, 16).view(8, 2)
Y = X @ torch.tensor([[1.5], [-0.5]]) + 0.25


def make():
    model = nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.fill_(0.1)
        model.bias.zero_()
    return model


def fmt(lrs):
    return "[" + ", ".join(f"{lr:.6f}" for lr in lrs) + "]"


# 1) linear warmup with LambdaLR
model = make()
opt = torch.optim.SGD(model.parameters(), lr=0.2)
warm = lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / 3))
print("start", fmt(warm.get_last_lr()), opt.param_groups[0]["initial_lr"])
for step in range(5):
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    warm.step()
    print(step, f"{loss.item():.5f}", fmt(warm.get_last_lr()), warm.last_epoch)

# 2) MultiplicativeLR with two param groups
model = make()
opt = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.05}], lr=0.1)
mult = lr_scheduler.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.9 if epoch < 3 else 0.5)
for epoch in range(5):
    opt.step()
    mult.step()
    print("mult", epoch, fmt(mult.get_last_lr()))
print(mult.state_dict()["last_epoch"], mult.state_dict()["lr_lambdas"], mult.state_dict()["base_lrs"])

# 3) warm restarts with fractional epochs
model = make()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
cos = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
iters = 2
for epoch in range(4):
    for i in range(iters):
        opt.zero_grad()
        F.mse_loss(model(X[i * 4:(i + 1) * 4]), Y[i * 4:(i + 1) * 4]).backward()
        opt.step()
        cos.step(epoch + i / iters)
        print("cos", epoch, i, fmt(cos.get_last_lr()), cos.T_cur, cos.T_i)

# 4) OneCycleLR per batch
model = make()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
one = lr_scheduler.OneCycleLR(opt, max_lr=0.5, epochs=2, steps_per_epoch=3)
for step in range(6):
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    one.step()
    print("one", step, f"{loss.item():.5f}", fmt(one.get_last_lr()), f"{opt.param_groups[0]['momentum']:.4f}")
try:
    one.step()
except ValueError as e:
    print("ValueError", e)

# 5) ReduceLROnPlateau on a (made up) validation curve
model = make()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
plateau = lr_scheduler.ReduceLROnPlateau(opt, factor=0.1, patience=2, threshold=0.01)
for epoch, val in enumerate([1.0, 0.8, 0.795, 0.79, 0.8, 0.7, 0.71, 0.72, 0.73, 0.74]):
    plateau.step(val)
    print("plateau", epoch, fmt(plateau.get_last_lr()), plateau.num_bad_epochs, f"{plateau.best:.3f}")
print(plateau.state_dict()["best"], plateau.state_dict()["num_bad_epochs"], plateau.state_dict()["_last_lr"])


# 6) a custom warmup scheduler written against the (legacy) base class, as old tutorials do
class WarmupInverseSqrt(lr_scheduler._LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(1, self.last_epoch + 1)
        scale = min(step / self.warmup, (self.warmup / step) ** 0.5)
        return [base * scale for base in self.base_lrs]


opt = torch.optim.SGD(make().parameters(), lr=0.4)
custom = WarmupInverseSqrt(opt, warmup=3)
lrs = []
for step in range(6):
    opt.step()
    custom.step()
    lrs.append(custom.get_last_lr()[0])
print("custom", fmt(lrs), isinstance(custom, lr_scheduler.LRScheduler))

# 7) CyclicLR (steps per batch, cycles momentum by default)
opt = torch.optim.SGD(make().parameters(), lr=0.1, momentum=0.9)
cyc = lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
trace = []
for step in range(9):
    opt.step()
    cyc.step()
    trace.append((round(cyc.get_last_lr()[0], 6), round(opt.param_groups[0]["momentum"], 4)))
print("cyclic", trace)
