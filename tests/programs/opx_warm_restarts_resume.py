# CosineAnnealingWarmRestarts stepped with fractional epochs inside the batch loop (the docs idiom),
# MultiStepLR resumed from a checkpoint with last_epoch, and deepcopy/pickle of optimizers.
import copy
import io
import pickle
import warnings

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts, MultiStepLR

model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
iters = 4
rows = []
for epoch in range(4):
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
        rows.append(round(sched.get_last_lr()[0], 5))
print(rows)
print(sched.T_cur, sched.T_i, sched.last_epoch)
sched.step()
print(round(sched.get_last_lr()[0], 5), sched.T_cur, sched.T_i)
for bad in (dict(T_0=0), dict(T_0=2, T_mult=0), dict(T_0=2.5)):
    try:
        CosineAnnealingWarmRestarts(opt, **bad)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    sched.step(-1)
except ValueError as e:
    print(type(e).__name__, e)

# MultiStepLR, checkpoint at epoch 5, resume
opt = torch.optim.SGD(model.parameters(), lr=1.0)
ms = MultiStepLR(opt, milestones=[3, 6, 8], gamma=0.5)
for epoch in range(5):
    opt.step()
    ms.step()
print(ms.get_last_lr(), sorted(ms.state_dict().keys()), ms.state_dict()["milestones"])
ckpt = {"opt": opt.state_dict(), "sched": ms.state_dict(), "epoch": 5}
opt2 = torch.optim.SGD(model.parameters(), lr=1.0)
ms2 = MultiStepLR(opt2, milestones=[3, 6, 8], gamma=0.5)
opt2.load_state_dict(ckpt["opt"])
ms2.load_state_dict(ckpt["sched"])
rows = []
for epoch in range(ckpt["epoch"], 10):
    opt2.step()
    ms2.step()
    rows.append(ms2.get_last_lr()[0])
print(rows)

# resume with last_epoch instead of load_state_dict
opt3 = torch.optim.SGD(model.parameters(), lr=1.0)
for g in opt3.param_groups:
    g["initial_lr"] = 1.0
ms3 = MultiStepLR(opt3, milestones=[3, 6, 8], gamma=0.5, last_epoch=4)
print(ms3.last_epoch, ms3.get_last_lr(), opt3.param_groups[0]["lr"])

# deepcopy / pickle of an optimizer with state
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model(torch.ones(3, 2)).sum().backward()
opt.step()
c = copy.deepcopy(opt)
print(type(c).__name__, len(c.state), c.param_groups[0]["params"][0] is model.weight)
print(c.param_groups[0]["lr"], sorted(c.state_dict()["state"][0].keys()))
blob = pickle.dumps(opt)
r = pickle.loads(blob)
print(type(r).__name__, len(r.state), sorted(r.defaults.keys()))
buf = io.BytesIO()
torch.save(opt, buf)
buf.seek(0)
o = torch.load(buf, weights_only=False)
print(type(o).__name__, o.param_groups[0]["betas"])
h = o.register_step_post_hook(lambda *a: print("hook after load"))
o.step()
