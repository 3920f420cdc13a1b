# Custom LR scheduler subclassing torch.optim.lr_scheduler.LRScheduler (warmup + inverse sqrt, as in
# transformer training scripts), ChainedScheduler(optimizer=...), and the warnings PyTorch emits for
# misordered step() calls and get_lr() outside step(), captured with warnings.catch_warnings.
import warnings

import torch
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, ExponentialLR, LRScheduler,
                                      MultiplicativeLR)


class WarmupInverseSqrt(LRScheduler):
    def __init__(self, optimizer, warmup_steps, last_epoch=-1):
        self.warmup_steps = warmup_steps
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        factor = min(step / self.warmup_steps, (self.warmup_steps / step) ** 0.5)
        return [base * factor for base in self.base_lrs]


p = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.AdamW([p], lr=1e-3)
sched = WarmupInverseSqrt(opt, warmup_steps=4)
print("after init:", sched.last_epoch, [f"{v:.6f}" for v in sched.get_last_lr()], sched._step_count)
lrs = []
for i in range(10):
    opt.step()
    sched.step()
    lrs.append(f"{sched.get_last_lr()[0]:.6f}")
print("lrs:", lrs)
sd = sched.state_dict()
print("state keys:", sorted(sd))
print("warmup in state:", sd["warmup_steps"])
fresh_opt = torch.optim.AdamW([torch.nn.Parameter(torch.ones(3))], lr=1e-3)
fresh = WarmupInverseSqrt(fresh_opt, warmup_steps=99)
fresh.load_state_dict(sd)
print("restored warmup:", fresh.warmup_steps, "last_epoch:", fresh.last_epoch)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    p2 = torch.nn.Parameter(torch.ones(2))
    o2 = torch.optim.SGD([p2], lr=0.1)
    s2 = ExponentialLR(o2, gamma=0.5)
    s2.step()  # before optimizer.step()
    o2.step()
    s2.get_lr()
for w in caught:
    print(w.category.__name__, "|", str(w.message).splitlines()[0][:110])

print("--- ChainedScheduler")
p3 = torch.nn.Parameter(torch.ones(2))
o3 = torch.optim.SGD([{"params": [p3], "lr": 1.0}, {"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.5}])
chain = ChainedScheduler([ConstantLR(o3, factor=0.5, total_iters=2),
                          ExponentialLR(o3, gamma=0.9),
                          MultiplicativeLR(o3, lr_lambda=[lambda e: 0.95, lambda e: 1.0])], optimizer=o3)
print("init:", [round(v, 5) for v in chain.get_last_lr()])
for step in range(5):
    o3.step()
    chain.step()
    print(step, [round(v, 5) for v in chain.get_last_lr()], [round(g["lr"], 5) for g in o3.param_groups])
csd = chain.state_dict()
print("chain keys:", sorted(csd), "n inner:", len(csd["_schedulers"]))
print("inner[2] lr_lambdas:", csd["_schedulers"][2]["lr_lambdas"])
print("chain optimizer is o3:", chain.optimizer is o3)
try:
    other = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1.0)
    ChainedScheduler([ExponentialLR(o3, 0.9), ExponentialLR(other, 0.9)])
except ValueError as e:
    print(type(e).__name__, e)
try:
    ChainedScheduler([ExponentialLR(o3, 0.9)], optimizer=torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1.0))
except ValueError as e:
    print(type(e).__name__, e)
