# Schedulers stored in a Lightning-style checkpoint: LambdaLR with a picklable callable-object warmup
# (its __dict__ goes into state_dict while plain lambdas are dropped), tensor learning rates
# (lr=torch.tensor(...)) updated in place by schedulers, and MultiStepLR/PolynomialLR closed forms.
import io

import torch
from torch.optim.lr_scheduler import LambdaLR, MultiStepLR, PolynomialLR


class LinearWarmup:
    def __init__(self, warmup, total):
        self.warmup, self.total = warmup, total

    def __call__(self, step):
        if step < self.warmup:
            return (step + 1) / self.warmup
        return max(0.0, (self.total - step) / max(1, self.total - self.warmup))


w = torch.nn.Parameter(torch.ones(2))
b = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.02}], lr=0.1)
sched = LambdaLR(opt, lr_lambda=[LinearWarmup(3, 10), lambda s: 0.9 ** s])
for _ in range(4):
    opt.step()
    sched.step()
print("lrs:", [round(v, 6) for v in sched.get_last_lr()])
sd = sched.state_dict()
print("lr_lambdas in state:", sd["lr_lambdas"])
buf = io.BytesIO()
torch.save({"sched": sd}, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=False)["sched"]
opt2 = torch.optim.SGD([{"params": [torch.nn.Parameter(torch.ones(2))]},
                        {"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.02}], lr=0.1)
sched2 = LambdaLR(opt2, lr_lambda=[LinearWarmup(1, 2), lambda s: 0.9 ** s])
sched2.load_state_dict(loaded)
print("restored warmup object:", sched2.lr_lambdas[0].warmup, sched2.lr_lambdas[0].total, sched2.last_epoch)
for _ in range(3):
    opt.step(); sched.step(); opt2.step(); sched2.step()
print("same after resume:", sched.get_last_lr() == sched2.get_last_lr(), [round(v, 6) for v in sched2.get_last_lr()])

print("--- tensor lr")
p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
topt = torch.optim.Adam([p], lr=torch.tensor(0.01))
lr_t = topt.param_groups[0]["lr"]
print("lr is tensor:", torch.is_tensor(lr_t), lr_t)
ms = MultiStepLR(topt, milestones=[2, 4], gamma=0.1)
for step in range(5):
    topt.zero_grad()
    (p ** 2).sum().backward()
    topt.step()
    ms.step()
    g = topt.param_groups[0]
    print(step, "lr", g["lr"], "same object:", g["lr"] is lr_t, "last_lr", ms.get_last_lr())
print("param:", p.data)
print("initial_lr:", topt.param_groups[0]["initial_lr"])
print("milestones:", ms.state_dict()["milestones"])

print("--- polynomial")
q = torch.nn.Parameter(torch.ones(1))
popt = torch.optim.SGD([q], lr=0.5)
poly = PolynomialLR(popt, total_iters=4, power=2.0)
vals = []
for _ in range(6):
    popt.step()
    poly.step()
    vals.append(round(poly.get_last_lr()[0], 6))
print("poly:", vals)
print("closed form at 2:", [round(v, 6) for v in poly._get_closed_form_lr()])
