# Schedulers composed and inspected: two schedulers on one optimizer, ChainedScheduler,
# CosineAnnealingWarmRestarts, PolynomialLR, ConstantLR, OneCycleLR's momentum cycling,
# per-group learning rates, ReduceLROnPlateau's cooldown/min_lr, and scheduler state_dicts.
import torch
from torch.optim import lr_scheduler as S

params = [torch.nn.Parameter(torch.zeros(2)), torch.nn.Parameter(torch.zeros(1))]


def trace(opt, sched, steps, key="lr"):
    seen = []
    for _ in range(steps):
        opt.step()
        seen.append(tuple(round(g[key], 6) for g in opt.param_groups))
        sched.step()
    return seen


def sgd(**kw):
    return torch.optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.5}], lr=1.0, **kw)


opt = sgd()
a = S.StepLR(opt, step_size=2, gamma=0.5)
b = S.ExponentialLR(opt, gamma=0.9)
lrs = []
for _ in range(6):
    opt.step()
    lrs.append([round(g["lr"], 6) for g in opt.param_groups])
    a.step()
    b.step()
print(lrs)
print([round(v, 6) for v in a.get_last_lr()], [round(v, 6) for v in b.get_last_lr()])

opt = sgd()
chained = S.ChainedScheduler([S.ConstantLR(opt, factor=0.1, total_iters=2), S.ExponentialLR(opt, gamma=0.9)])
print(trace(opt, chained, 6))

opt = sgd()
print(trace(opt, S.CosineAnnealingWarmRestarts(opt, T_0=3), 8))
opt = sgd()
print(trace(opt, S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.1), 9))
opt = sgd()
print(trace(opt, S.PolynomialLR(opt, total_iters=4, power=2.0), 6))
opt = sgd()
print(trace(opt, S.ConstantLR(opt, factor=0.5, total_iters=3), 5))
opt = sgd()
print(trace(opt, S.LinearLR(opt, start_factor=1.0, end_factor=0.2, total_iters=4), 6))
opt = sgd()
print(trace(opt, S.CosineAnnealingLR(opt, T_max=3, eta_min=0.1), 9))
opt = sgd()
print(trace(opt, S.LambdaLR(opt, lr_lambda=[lambda e: 1 / (e + 1), lambda e: 0.5 ** e]), 4))
opt = sgd()
print(trace(opt, S.MultiStepLR(opt, milestones=[1, 3, 3], gamma=0.5), 5))

# OneCycleLR cycles momentum (or Adam's beta1) inversely to the learning rate
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
one = S.OneCycleLR(opt, max_lr=0.4, total_steps=8, pct_start=0.25, anneal_strategy="linear")
print(trace(opt, one, 8))
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
one = S.OneCycleLR(opt, max_lr=0.4, total_steps=8, pct_start=0.25, anneal_strategy="linear")
print(trace(opt, one, 8, key="momentum"))
opt = torch.optim.Adam([{"params": params[:1]}, {"params": params[1:]}], lr=0.1)
one = S.OneCycleLR(opt, max_lr=[0.4, 0.2], epochs=2, steps_per_epoch=3, div_factor=10, final_div_factor=100)
print(trace(opt, one, 6), [round(g["betas"][0], 6) for g in opt.param_groups])
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
one = S.OneCycleLR(opt, max_lr=1.0, total_steps=9, three_phase=True, cycle_momentum=False)
print(trace(opt, one, 9), opt.param_groups[0]["momentum"], opt.param_groups[0]["initial_lr"],
      opt.param_groups[0]["max_lr"], opt.param_groups[0]["min_lr"])

opt = sgd()
plateau = S.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=0, cooldown=1, min_lr=[0.2, 0.2])
for acc in [0.5, 0.6, 0.6, 0.55, 0.58, 0.59, 0.7, 0.7, 0.7, 0.7]:
    plateau.step(acc)
    print([round(g["lr"], 6) for g in opt.param_groups], plateau.num_bad_epochs, end=" | ")
print()
opt = sgd()
plateau = S.ReduceLROnPlateau(opt, threshold=0.1, threshold_mode="abs", patience=1)
for loss in [1.0, 0.95, 0.91, 0.85, 0.84, 0.70, 0.69]:
    plateau.step(loss)
print([round(g["lr"], 6) for g in opt.param_groups], plateau.best, plateau.get_last_lr())

# a scheduler's state_dict resumes the schedule
opt = sgd()
sched = S.StepLR(opt, step_size=2, gamma=0.1)
for _ in range(3):
    opt.step()
    sched.step()
sd = sched.state_dict()
print(sorted(k for k in sd if not k.startswith("_")), sd["last_epoch"], sd["_step_count"], [round(v, 6) for v in sd["_last_lr"]])
opt2 = sgd()
sched2 = S.StepLR(opt2, step_size=5, gamma=0.5)
sched2.load_state_dict(sd)
opt2.step()
sched2.step()
print(sched2.last_epoch, sched2.step_size, [round(v, 6) for v in sched2.get_last_lr()],
      [round(g["lr"], 6) for g in opt2.param_groups])
