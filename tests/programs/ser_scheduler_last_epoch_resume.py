# Old-style resume: re-creating the scheduler with last_epoch=<epoch> instead of loading its
# state_dict (needs 'initial_lr' in the param groups), named param groups with custom keys
# surviving optimizer save/load, and changing lr by hand after loading.
import io

import torch
import torch.nn as nn
from torch.optim import lr_scheduler as S

model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD([
    {"params": model[0].parameters(), "name": "backbone", "lr": 0.01},
    {"params": model[1].parameters(), "name": "head"},
], lr=0.1, momentum=0.9)
try:
    S.StepLR(opt, step_size=2, gamma=0.5, last_epoch=3)
except KeyError as e:
    print(type(e).__name__, e)

sched = S.StepLR(opt, step_size=2, gamma=0.5)
print([g["initial_lr"] for g in opt.param_groups], [g["name"] for g in opt.param_groups])
for epoch in range(5):
    opt.step()
    sched.step()
print(sched.last_epoch, [round(lr, 6) for lr in sched.get_last_lr()])

buf = io.BytesIO()
torch.save({"opt": opt.state_dict(), "epoch": 5}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print([{k: v for k, v in g.items() if k in ("name", "lr", "initial_lr", "params")} for g in ck["opt"]["param_groups"]])

model2 = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt2 = torch.optim.SGD([{"params": model2[0].parameters()}, {"params": model2[1].parameters()}], lr=0.5)
opt2.load_state_dict(ck["opt"])
print([(g["name"], g["lr"], g["momentum"]) for g in opt2.param_groups])
resumed = S.StepLR(opt2, step_size=2, gamma=0.5, last_epoch=ck["epoch"] - 1)
print(resumed.last_epoch, [round(lr, 6) for lr in resumed.get_last_lr()], [round(g["lr"], 6) for g in opt2.param_groups])
opt2.step()
resumed.step()
print(resumed.last_epoch, [round(lr, 6) for lr in resumed.get_last_lr()])

cos = S.CosineAnnealingLR(opt2, T_max=10, last_epoch=ck["epoch"] - 1)
print(cos.last_epoch, [round(lr, 6) for lr in cos.get_last_lr()])

for g in opt2.param_groups:
    g["lr"] = 0.003
print(resumed.get_last_lr(), [g["lr"] for g in opt2.param_groups])
opt2.step()
resumed.step()
print([round(lr, 6) for lr in resumed.get_last_lr()])

fresh = torch.optim.Adam(model2.parameters(), lr=1e-3)
try:
    fresh.load_state_dict(ck["opt"])
except ValueError as e:
    print(type(e).__name__, e)
sd = fresh.state_dict()
sd["param_groups"][0]["lr"] = 0.123
fresh.load_state_dict(sd)
print(fresh.param_groups[0]["lr"], fresh.defaults["lr"])
