# Per-epoch get_last_lr() for schedulers past their horizon and with odd arguments: MultiStepLR
# with repeated milestones, CosineAnnealingLR beyond T_max, PolynomialLR powers, LinearLR /
# ConstantLR / SequentialLR argument errors, ReduceLROnPlateau per-group min_lr and eps,
# and epoch-argument stepping (closed form).
import warnings

import torch
from torch.optim import lr_scheduler as S

warnings.simplefilter("ignore")
w = torch.nn.Parameter(torch.zeros(1))


def lrs(make, n, lr=1.0, **kw):
    opt = torch.optim.SGD([w], lr=lr, **kw)
    sch = make(opt)
    out = [round(sch.get_last_lr()[0], 5)]
    for _ in range(n):
        opt.step()
        sch.step()
        out.append(round(sch.get_last_lr()[0], 5))
    return out


print(lrs(lambda o: S.MultiStepLR(o, milestones=[2, 2, 4], gamma=0.5), 6))
print(lrs(lambda o: S.MultiStepLR(o, milestones=[4, 1], gamma=0.1), 6))
print(lrs(lambda o: S.CosineAnnealingLR(o, T_max=3, eta_min=0.1), 9))
print(lrs(lambda o: S.PolynomialLR(o, total_iters=4, power=0.5), 6))
print(lrs(lambda o: S.PolynomialLR(o, total_iters=3, power=2.0), 5))
print(lrs(lambda o: S.LinearLR(o, start_factor=1.0, end_factor=0.25, total_iters=3), 5))
print(lrs(lambda o: S.ConstantLR(o, factor=0.5, total_iters=0), 2))
print(lrs(lambda o: S.StepLR(o, step_size=1, gamma=1.0), 2))
print(lrs(lambda o: S.ExponentialLR(o, gamma=1.1), 3))
print(lrs(lambda o: S.MultiplicativeLR(o, lr_lambda=lambda e: 0.9 if e % 2 else 1.0), 5))
print(lrs(lambda o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.1, total_iters=2),
                                       S.ExponentialLR(o, gamma=0.5)], milestones=[2]), 5))
print(lrs(lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.5, total_iters=2),
                                       S.StepLR(o, step_size=2, gamma=0.1),
                                       S.ConstantLR(o, factor=0.2, total_iters=10)],
                                   milestones=[2, 5]), 8))
print(lrs(lambda o: S.ChainedScheduler([S.MultiStepLR(o, [2], 0.1), S.LinearLR(o, 0.5, total_iters=3)]), 5))

for make in [
    lambda o: S.ConstantLR(o, factor=1.5),
    lambda o: S.LinearLR(o, start_factor=0.0),
    lambda o: S.LinearLR(o, end_factor=1.5),
    lambda o: S.SequentialLR(o, [S.StepLR(o, 1)], milestones=[2]),
    lambda o: S.SequentialLR(o, [S.StepLR(o, 1), S.StepLR(o, 1)], milestones=[]),
    lambda o: S.CosineAnnealingWarmRestarts(o, T_0=0),
    lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
    lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1.5),
    lambda o: S.StepLR(o, step_size=2, gamma=0.5, last_epoch=-2),
    lambda o: S.ExponentialLR(None, gamma=0.5),
]:
    try:
        make(torch.optim.SGD([w], lr=1.0))
        print("ok")
    except (ValueError, TypeError, KeyError) as e:
        print(type(e).__name__, e)

opt = torch.optim.SGD([{"params": [w]}, {"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.5}], lr=1.0)
plat = S.ReduceLROnPlateau(opt, factor=0.1, patience=0, min_lr=[0.01, 0.2], eps=0.05)
for v in [1.0, 2.0, 3.0, 4.0, 5.0]:
    plat.step(v)
    print(v, [round(g["lr"], 5) for g in opt.param_groups], plat.num_bad_epochs, plat.cooldown_counter)
sd = plat.state_dict()
print(sorted(k for k in sd if k != "mode_worse"), sd["best"], sd["last_epoch"], sd["min_lrs"])
try:
    S.ReduceLROnPlateau(opt, min_lr=[0.1])
except ValueError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD([w], lr=1.0)
sch = S.StepLR(opt, step_size=2, gamma=0.5)
for e in [3, 5, 1, 6]:
    opt.step()
    sch.step(e)
    print(e, sch.last_epoch, sch.get_last_lr(), opt.param_groups[0]["lr"])
sch = S.CosineAnnealingLR(torch.optim.SGD([w], lr=1.0), T_max=4)
for e in [2, 4, 1]:
    sch.step(e)
    print(e, [round(v, 5) for v in sch.get_last_lr()])
