# Resuming a run from a mid-training checkpoint (model, optimizer, scheduler, epoch and RNG
# state) must reproduce the uninterrupted run exactly, even with dropout in the model.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_model():
    m = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.4)
    return m


def make_opt(m):
    opt = torch.optim.AdamW(m.parameters(), lr=0.02, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    return opt, sched


x = torch.linspace(-1, 1, 24).view(8, 3)
y = (x ** 2).sum(1, keepdim=True)


def run_epoch(m, opt, sched):
    m.train()
    opt.zero_grad()
    loss = F.mse_loss(m(x), y)
    loss.backward()
    opt.step()
    sched.step()
    return loss.item()


torch.manual_seed(0)
m = make_model()
opt, sched = make_opt(m)
full = [run_epoch(m, opt, sched) for _ in range(8)]

torch.manual_seed(0)
m = make_model()
opt, sched = make_opt(m)
part = [run_epoch(m, opt, sched) for _ in range(4)]
buf = io.BytesIO()
torch.save({
    "epoch": 4,
    "model": m.state_dict(),
    "optimizer": opt.state_dict(),
    "scheduler": sched.state_dict(),
    "rng": torch.get_rng_state(),
}, buf)
del m, opt, sched

torch.manual_seed(123)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print(sorted(ckpt), ckpt["epoch"], ckpt["rng"].dtype, ckpt["rng"].dim())
print(ckpt["scheduler"])
m = make_model()
opt, sched = make_opt(m)
print(m.load_state_dict(ckpt["model"]))
opt.load_state_dict(ckpt["optimizer"])
sched.load_state_dict(ckpt["scheduler"])
torch.set_rng_state(ckpt["rng"])
print(sched.get_last_lr(), opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"])
print(opt.state[m[0].weight]["step"], opt.state[m[3].bias]["exp_avg"].shape)
rest = [run_epoch(m, opt, sched) for _ in range(ckpt["epoch"], 8)]
print("same as uninterrupted:", part + rest == full)
print("loss went down:", full[-1] < full[0])
print(sched.last_epoch, sched.get_last_lr())
