# Custom schedules with LambdaLR (one lambda per group, a callable class whose state is saved),
# MultiplicativeLR, PolynomialLR and ChainedScheduler with ReduceLROnPlateau kept separate,
# scheduler state_dict round trip and the warnings-free ordering optimizer.step() -> sched.step().
import math

import torch
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, ExponentialLR, LambdaLR,
                                      MultiplicativeLR, MultiStepLR, PolynomialLR, StepLR)


class WarmupInvSqrt:
    def __init__(self, warmup):
        self.warmup = warmup

    def __call__(self, step):
        step = max(step, 1)
        return min(step ** -0.5, step * self.warmup ** -1.5) * math.sqrt(self.warmup)


def groups():
    a = torch.nn.Parameter(torch.zeros(2))
    b = torch.nn.Parameter(torch.zeros(2))
    return torch.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1)


def run(opt, sched, n, metric=False):
    out = []
    for _ in range(n):
        opt.step()
        sched.step()
        out.append([round(lr, 6) for lr in sched.get_last_lr()])
    return out


opt = groups()
sched = LambdaLR(opt, lr_lambda=[WarmupInvSqrt(4), lambda e: 0.9 ** e])
print(run(opt, sched, 8))
sd = sched.state_dict()
print(sorted(sd.keys()), sd["lr_lambdas"], sd["last_epoch"], sd["base_lrs"])
opt2 = groups()
s2 = LambdaLR(opt2, lr_lambda=[WarmupInvSqrt(100), lambda e: 1.0])
s2.load_state_dict(sd)
print(s2.lr_lambdas[0].warmup, s2.last_epoch, s2.base_lrs)
try:
    LambdaLR(opt, lr_lambda=[lambda e: 1.0])
except ValueError as e:
    print("ValueError", e)

opt = groups()
print(run(opt, MultiplicativeLR(opt, lr_lambda=lambda e: 0.95 if e < 4 else 0.5), 7))
opt = groups()
print(run(opt, PolynomialLR(opt, total_iters=5, power=2.0), 7))
opt = groups()
print(run(opt, MultiStepLR(opt, milestones=[2, 2, 5], gamma=0.1), 7))
opt = groups()
chain = ChainedScheduler([ConstantLR(opt, factor=0.5, total_iters=3), StepLR(opt, 2, gamma=0.5),
                          ExponentialLR(opt, gamma=0.95)])
print(run(opt, chain, 7))
print(sorted(chain.state_dict().keys()), len(chain.state_dict()["_schedulers"]))
print([type(s).__name__ for s in chain._schedulers])
opt = groups()
s = StepLR(opt, step_size=3, gamma=0.5, last_epoch=-1)
print(opt.param_groups[0]["initial_lr"], s.base_lrs, s.last_epoch, s.get_last_lr())
try:
    StepLR(groups(), step_size=3, last_epoch=4)
except KeyError as e:
    print("KeyError", e)
opt = groups()
for g in opt.param_groups:
    g["initial_lr"] = g["lr"] * 2
s = StepLR(opt, step_size=2, gamma=0.1, last_epoch=3)
print(s.last_epoch, [round(v, 6) for v in s.get_last_lr()], [round(g["lr"], 6) for g in opt.param_groups])
print(run(opt, s, 3))
try:
    StepLR("not an optimizer", 2)
except TypeError as e:
    print("TypeError", e)
