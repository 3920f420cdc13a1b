# The classic scheduler mistakes: calling scheduler.step() before optimizer.step(),
# passing an epoch to step(), calling get_lr() directly; users catch the warnings.
import warnings
import torch

p = torch.nn.Parameter(torch.ones(3))


def show(ws):
    for w in ws:
        print(w.category.__name__, str(w.message)[:110])


opt = torch.optim.SGD([p], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    sched.step()
    opt.step()
show(ws)
print("lr after misordered step", sched.get_last_lr())

with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    lrs = sched.get_lr()
show(ws)
print("get_lr", lrs)

with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    opt.step()
    sched.step(5)
show(ws)
print("after step(5)", sched.last_epoch, sched.get_last_lr())

opt = torch.optim.SGD([p], lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    for _ in range(3):
        opt.step()
        sched.step()
show(ws)
print("clean", [round(x, 5) for x in sched.get_last_lr()], sched.last_epoch, sched._step_count)

opt = torch.optim.SGD([p], lr=0.1)
try:
    torch.optim.lr_scheduler.StepLR(opt, step_size=2, last_epoch=3)
except KeyError as e:
    print("KeyError", e)
try:
    torch.optim.lr_scheduler.StepLR("not an optimizer", step_size=2)
except TypeError as e:
    print("TypeError", e)
try:
    torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.0)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.lr_scheduler.ConstantLR(opt, factor=1.5)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5)
except ValueError as e:
    print("ValueError", e)
