# timm CosineLRScheduler semantics (warmup_t with warmup_lr_init, cycle_limit, lr_min, k_decay,
# t_in_epochs=False stepping per update) written by hand over optimizer.param_groups, checked
# against torch's SequentialLR(LinearLR warmup, CosineAnnealingLR) and a LambdaLR equivalent.
import math
import torch
import torch.nn as nn


class CosineWarmup:
    def __init__(self, optimizer, t_initial, lr_min=0.0, warmup_t=0, warmup_lr_init=0.0, k_decay=1.0):
        self.optimizer = optimizer
        self.t_initial, self.lr_min = t_initial, lr_min
        self.warmup_t, self.warmup_lr_init, self.k_decay = warmup_t, warmup_lr_init, k_decay
        self.base_values = [g["lr"] for g in optimizer.param_groups]
        for g in optimizer.param_groups:
            g.setdefault("initial_lr", g["lr"])
        self.warmup_steps = [(v - warmup_lr_init) / warmup_t for v in self.base_values] if warmup_t else [1] * len(self.base_values)
        self.step_update(0)

    def _get_lr(self, t):
        if t < self.warmup_t:
            return [self.warmup_lr_init + t * s for s in self.warmup_steps]
        t = t - self.warmup_t
        if t >= self.t_initial:
            return [self.lr_min for _ in self.base_values]
        k = self.k_decay
        return [self.lr_min + 0.5 * (lr_max - self.lr_min) * (1 + math.cos(math.pi * t ** k / self.t_initial ** k))
                for lr_max in self.base_values]

    def step_update(self, num_updates):
        for g, lr in zip(self.optimizer.param_groups, self._get_lr(num_updates)):
            g["lr"] = lr


def make_opt():
    m = nn.Linear(3, 1)
    return torch.optim.SGD([{"params": [m.weight]}, {"params": [m.bias], "lr": 0.05}], lr=0.1, momentum=0.9)


opt = make_opt()
sched = CosineWarmup(opt, t_initial=8, lr_min=1e-3, warmup_t=3, warmup_lr_init=1e-4)
mine = []
for step in range(14):
    mine.append([round(g["lr"], 6) for g in opt.param_groups])
    opt.step()
    sched.step_update(step + 1)
print(mine)

opt2 = make_opt()
warm = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=1e-3, end_factor=1.0, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=8, eta_min=1e-3)
seq = torch.optim.lr_scheduler.SequentialLR(opt2, schedulers=[warm, cos], milestones=[3])
theirs = []
for step in range(14):
    theirs.append([round(g["lr"], 6) for g in opt2.param_groups])
    opt2.step()
    seq.step()
print(theirs)
print(seq.get_last_lr(), [round(v, 6) for v in seq.get_last_lr()])
sd = seq.state_dict()
print(sorted(sd.keys()), sd["last_epoch"], sd["_milestones"])

opt3 = make_opt()
lam = torch.optim.lr_scheduler.LambdaLR(
    opt3, lr_lambda=lambda t: (t + 1) / 3 if t < 3 else 0.5 * (1 + math.cos(math.pi * (t - 3) / 8)))
vals = []
for step in range(12):
    vals.append(round(opt3.param_groups[0]["lr"], 6))
    opt3.step()
    lam.step()
print(vals)

opt4 = make_opt()
kd = CosineWarmup(opt4, t_initial=10, k_decay=2.0)
print([round(kd._get_lr(t)[0], 5) for t in range(0, 12, 2)])
print(opt4.param_groups[1]["initial_lr"], sorted(opt4.param_groups[0].keys()))
