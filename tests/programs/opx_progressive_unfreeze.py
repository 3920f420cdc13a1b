# Progressive unfreezing (ULMFiT / fastai style) with add_param_group: which schedulers cope with a
# group added after them (StepLR, LinearLR) and which refuse (LambdaLR, CyclicLR, warm restarts),
# and the usual fix: rebuild the scheduler with one lambda per group and the current last_epoch.
import torch
import torch.nn as nn
from torch.optim import lr_scheduler

model = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view_as(p))
t = torch.linspace(-1, 1, 24)
x = torch.stack([t, torch.sin(3 * t)], 1)
y = (t ** 2 + 0.5 * torch.sin(3 * t)).unsqueeze(1)
layers = [model[4], model[2], model[0]]  # head first

makers = {
    "StepLR": lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
    "LinearLR": lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4),
    "LambdaLR": lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.8 ** e),
    "CyclicLR": lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.05, step_size_up=2),
    "CosineAnnealingWarmRestarts": lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3),
    "MultiplicativeLR": lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.95),
}
for name, make in makers.items():
    for p in model.parameters():
        p.requires_grad_(False)
    for p in layers[0].parameters():
        p.requires_grad_(True)
    opt = torch.optim.SGD(layers[0].parameters(), lr=0.05, momentum=0.9)
    sched = make(opt)
    try:
        for stage in range(3):
            if stage > 0:
                for p in layers[stage].parameters():
                    p.requires_grad_(True)
                opt.add_param_group({"params": list(layers[stage].parameters()), "lr": 0.05 / (2.6 ** stage)})
            for step in range(3):
                opt.zero_grad()
                loss = nn.functional.mse_loss(model(x), y)
                loss.backward()
                opt.step()
                sched.step()
        print(f"{name:28s} ok  ", [f"{g['lr']:.5f}" for g in opt.param_groups])
    except ValueError as e:
        print(f"{name:28s} fail", len(opt.param_groups), type(e).__name__, e)

# the fix: a fresh LambdaLR with one lambda per group, resumed at the current epoch
opt = torch.optim.AdamW([{"params": list(layers[0].parameters()), "lr": 1e-2}], weight_decay=0.0)
sched = lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
for stage in range(3):
    if stage > 0:
        opt.add_param_group({"params": list(layers[stage].parameters()), "lr": 1e-2 / (2.6 ** stage)})
        for g in opt.param_groups:
            g.setdefault("initial_lr", g["lr"])
        sched = lr_scheduler.LambdaLR(opt, [lambda e: 0.9 ** e] * len(opt.param_groups), last_epoch=sched.last_epoch)
    for step in range(4):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
    print(stage, f"{loss.item():.4f}", [f"{lr:.5f}" for lr in sched.get_last_lr()], sched.last_epoch)
print(len(opt.state), [len(g["params"]) for g in opt.param_groups])
