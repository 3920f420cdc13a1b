# Per-batch OneCycleLR as Lightning users configure it ({"interval": "step"}): per-group max_lr list,
# three_phase=True, anneal_strategy="linear", momentum cycling of Adam betas, steps_per_epoch/epochs,
# and the error when stepping past total_steps; plus CosineAnnealingWarmRestarts with fractional epochs.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts, OneCycleLR

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
backbone, head = model[0], model[2]
opt = torch.optim.Adam([{"params": backbone.parameters()},
                        {"params": head.parameters(), "betas": (0.9, 0.98)}], lr=1e-3)
sched = OneCycleLR(opt, max_lr=[0.01, 0.05], epochs=3, steps_per_epoch=4, pct_start=0.25,
                   anneal_strategy="linear", three_phase=True, div_factor=10.0,
                   final_div_factor=100.0, base_momentum=0.8, max_momentum=0.95)
print("total_steps:", sched.total_steps)
print("initial lr:", [g["lr"] for g in opt.param_groups], "initial_lr:", [g["initial_lr"] for g in opt.param_groups])
print("min/max lr keys:", sorted(k for k in opt.param_groups[0] if "lr" in k or "momentum" in k))
print("initial betas:", [tuple(round(b, 4) for b in g["betas"]) for g in opt.param_groups])
x = torch.linspace(-1, 1, 12).view(4, 3)
for epoch in range(3):
    for step in range(4):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        sched.step()
        g0, g1 = opt.param_groups
        print(f"e{epoch} s{step} lr=({g0['lr']:.6f}, {g1['lr']:.6f}) beta1=({g0['betas'][0]:.4f}, {g1['betas'][0]:.4f})"
              f" beta2={g1['betas'][1]}")
print("last_epoch:", sched.last_epoch, "get_last_lr:", [f"{v:.2e}" for v in sched.get_last_lr()])
try:
    sched.step()
except ValueError as e:
    print(type(e).__name__, e)

for bad in [dict(total_steps=None, epochs=None, steps_per_epoch=None), dict(total_steps=0),
            dict(total_steps=10, pct_start=1.5), dict(total_steps=10, anneal_strategy="quad")]:
    try:
        OneCycleLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1), max_lr=0.1, **bad)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    OneCycleLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1), max_lr=[0.1, 0.2], total_steps=5)
except ValueError as e:
    print(type(e).__name__, e)

print("--- warm restarts, fractional epochs")
w = torch.zeros(2, requires_grad=True)
opt2 = torch.optim.SGD([w], lr=0.1, momentum=0.9)
wr = CosineAnnealingWarmRestarts(opt2, T_0=2, T_mult=2, eta_min=0.001)
iters = 3
for epoch in range(5):
    row = []
    for i in range(iters):
        opt2.step()
        wr.step(epoch + i / iters)
        row.append(f"{wr.get_last_lr()[0]:.5f}")
    print(f"epoch {epoch}: T_i={wr.T_i} T_cur={wr.T_cur:.4f}", row)
wr.step()
print("implicit step:", wr.last_epoch, wr.T_cur, f"{opt2.param_groups[0]['lr']:.5f}")
print("state keys:", sorted(wr.state_dict()))
for bad in [dict(T_0=0), dict(T_0=2, T_mult=0), dict(T_0=2, T_mult=1.5), dict(T_0=2, eta_min="x")]:
    try:
        CosineAnnealingWarmRestarts(opt2, **bad)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    wr.step(-1)
except ValueError as e:
    print(type(e).__name__, e)
