# The "Noam" learning-rate schedule three ways -- the old Annotated Transformer NoamOpt wrapper
# that writes param_groups' lr itself, LambdaLR with the rate() function, and LinearLR +
# LambdaLR in SequentialLR -- plus scheduler state_dict/load_state_dict and the warnings users hit.
import warnings
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR, LinearLR, SequentialLR


class NoamOpt:
    "Optim wrapper that implements rate."
    def __init__(self, model_size, factor, warmup, optimizer):
        self.optimizer = optimizer
        self._step = 0
        self.warmup = warmup
        self.factor = factor
        self.model_size = model_size
        self._rate = 0

    def step(self):
        self._step += 1
        rate = self.rate()
        for p in self.optimizer.param_groups:
            p["lr"] = rate
        self._rate = rate
        self.optimizer.step()

    def rate(self, step=None):
        if step is None:
            step = self._step
        return self.factor * (self.model_size ** (-0.5) * min(step ** (-0.5), step * self.warmup ** (-1.5)))


def rate(step, model_size, factor, warmup):
    step = max(step, 1)
    return factor * (model_size ** (-0.5) * min(step ** (-0.5), step * warmup ** (-1.5)))


lin = nn.Linear(4, 2)
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-0.5, 0.5, 8).view(2, 4))
    lin.bias.zero_()
x = torch.linspace(-1, 1, 12).view(3, 4)
target = torch.tensor([[0.5, -0.5], [0.1, 0.2], [-0.3, 0.4]])

noam = NoamOpt(512, 2, 4000, torch.optim.Adam(lin.parameters(), lr=0, betas=(0.9, 0.98), eps=1e-9))
print([f"{noam.rate(s):.3e}" for s in (1, 100, 4000, 8000, 20000)])
opt = torch.optim.Adam(lin.parameters(), lr=2.0, betas=(0.9, 0.98), eps=1e-9)
sched = LambdaLR(opt, lr_lambda=lambda s: rate(s, 512, 1, 4000))
print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"])
lrs = []
for step in range(1, 9):
    loss = (lin(x) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
print([f"{lr:.3e}" for lr in lrs], f"{loss.item():.5f}")
print(all(abs(lr - noam.rate(i + 1)) < 1e-12 for i, lr in enumerate(lrs)))
sd = sched.state_dict()
print(sorted(sd), sd["base_lrs"], sd["last_epoch"], sd["lr_lambdas"])

opt2 = torch.optim.Adam(lin.parameters(), lr=2.0)
sched2 = LambdaLR(opt2, lr_lambda=lambda s: 1.0)
sched2.load_state_dict(sd)
print(sched2.last_epoch, sched2.get_last_lr())

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    opt3 = torch.optim.SGD(lin.parameters(), lr=0.1)
    warm = LinearLR(opt3, start_factor=0.25, total_iters=3)
    decay = LambdaLR(opt3, lambda s: 0.5 ** s)
    seq = SequentialLR(opt3, schedulers=[warm, decay], milestones=[3])
    seq.step()                       # before optimizer.step(): warns
    got = []
    for _ in range(6):
        opt3.step()
        seq.step()
        got.append(round(opt3.param_groups[0]["lr"], 5))
    print(got, seq.last_epoch)
    print(round(sched.get_lr()[0], 8))  # get_lr outside step: warns
for c in caught:
    print(c.category.__name__, str(c.message)[:90])

try:
    LambdaLR(opt, lr_lambda=[lambda s: 1.0, lambda s: 2.0])
except ValueError as e:
    print(type(e).__name__, e)
