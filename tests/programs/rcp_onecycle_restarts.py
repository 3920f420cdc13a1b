# Per-batch schedulers from fastai/timm-style loops: OneCycleLR (with Adam betas cycling,
# three_phase, linear anneal) stepped each batch, CosineAnnealingWarmRestarts stepped with
# fractional epochs, CyclicLR modes, and the "stepped too many times" error.
import torch
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR

w = torch.nn.Parameter(torch.tensor([1.0, -1.0]))


def lrs(opt, key="lr"):
    return [round(g[key] if key != "betas" else g["betas"][0], 6) for g in opt.param_groups]


opt = torch.optim.Adam([w], lr=1e-3)
sched = OneCycleLR(opt, max_lr=0.01, epochs=3, steps_per_epoch=4, pct_start=0.25)
print(sorted(k for k in opt.param_groups[0] if k in ("initial_lr", "max_lr", "min_lr", "betas", "lr")))
for epoch in range(3):
    row = []
    for b in range(4):
        opt.step()
        row.append((lrs(opt)[0], lrs(opt, "betas")[0]))
        sched.step()
    print(epoch, row)
try:
    sched.step()
except ValueError as e:
    print("ValueError", e)

opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
sched = OneCycleLR(opt, max_lr=[0.5], total_steps=9, three_phase=True, anneal_strategy="linear",
                   div_factor=10, final_div_factor=100)
trace = []
for _ in range(9):
    opt.step()
    trace.append((lrs(opt)[0], lrs(opt, "momentum")[0]))
    sched.step()
print(trace)

opt = torch.optim.SGD([w], lr=0.1)
sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
iters = 3
trace = []
for epoch in range(5):
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
        trace.append(lrs(opt)[0])
print(trace)
print(sched.T_cur, sched.T_i, sched.last_epoch)

for mode in ["triangular", "triangular2", "exp_range"]:
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode=mode, gamma=0.9)
    trace = []
    for _ in range(11):
        opt.step()
        trace.append(lrs(opt)[0])
        sched.step()
    print(mode, trace, lrs(opt, "momentum"))

opt = torch.optim.Adam([w], lr=0.1)
try:
    CyclicLR(opt, base_lr=0.01, max_lr=0.1)
except ValueError as e:
    print("ValueError", e)
sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, cycle_momentum=False, scale_fn=lambda x: 0.5 ** (x - 1),
                 scale_mode="cycle", step_size_up=1)
for _ in range(6):
    opt.step()
    sched.step()
print(lrs(opt), sorted(sched.state_dict().keys()))
for bad in [dict(T_0=0), dict(T_0=2, T_mult=0), dict(T_0=2.5)]:
    try:
        CosineAnnealingWarmRestarts(torch.optim.SGD([w], lr=0.1), **bad)
    except ValueError as e:
        print("ValueError", e)

# resuming a CyclicLR run from a checkpoint dict
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3)
for _ in range(4):
    opt.step()
    sched.step()
ckpt = {"sched": sched.state_dict(), "opt": opt.state_dict()}
print(sorted(ckpt["sched"].keys()))
opt2 = torch.optim.SGD([w], lr=0.1, momentum=0.9)
sched2 = CyclicLR(opt2, base_lr=0.01, max_lr=0.1, step_size_up=3)
opt2.load_state_dict(ckpt["opt"])
sched2.load_state_dict(ckpt["sched"])
print(sorted(ckpt["sched"].keys()) == sorted(sched.state_dict().keys()), sched2.last_epoch, lrs(opt2))
try:
    CyclicLR(opt2, base_lr=0.01, max_lr=0.1).load_state_dict(ckpt["sched"])
except KeyError as e:
    print("KeyError", e)
