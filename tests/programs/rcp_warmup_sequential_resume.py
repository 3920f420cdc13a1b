# Warmup + cosine via LinearLR and SequentialLR (torchvision reference recipe), resumed from a
# checkpoint (optimizer + scheduler state_dict in io.BytesIO) mid-training; lr trace compared.
import io

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR, ExponentialLR


def build():
    model = nn.Linear(3, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.2, -0.1, 0.3]]))
        model.bias.fill_(0.05)
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") else decay).append(p)
    opt = torch.optim.SGD([{"params": decay, "weight_decay": 1e-2}, {"params": no_decay, "weight_decay": 0.0}],
                          lr=0.1, momentum=0.9, nesterov=True)
    warm = LinearLR(opt, start_factor=0.01, total_iters=4)
    main = CosineAnnealingLR(opt, T_max=8, eta_min=1e-4)
    sched = SequentialLR(opt, schedulers=[warm, main], milestones=[4])
    return model, opt, sched


x = torch.stack([torch.linspace(-1, 1, 16), torch.sin(torch.arange(16.0)), torch.cos(torch.arange(16.0))], 1)
y = (x @ torch.tensor([1.0, -2.0, 0.5]) + 0.3).unsqueeze(1)


def train(model, opt, sched, epochs, log):
    for epoch in epochs:
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        log.append((epoch, round(loss.item(), 5), [round(v, 6) for v in sched.get_last_lr()]))


model, opt, sched = build()
full = []
train(model, opt, sched, range(12), full)
for row in full:
    print(*row)

model, opt, sched = build()
part = []
train(model, opt, sched, range(5), part)
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": 5}, buf)
buf.seek(0)
ckpt = torch.load(buf)
print(sorted(ckpt["sched"].keys()))
print(ckpt["sched"]["_milestones"], ckpt["sched"]["last_epoch"], len(ckpt["sched"]["_schedulers"]))
print(sorted(ckpt["opt"]["param_groups"][0].keys()))
model2, opt2, sched2 = build()
model2.load_state_dict(ckpt["model"])
opt2.load_state_dict(ckpt["opt"])
sched2.load_state_dict(ckpt["sched"])
print(sched2.last_epoch, [round(v, 6) for v in sched2.get_last_lr()], [round(g["lr"], 6) for g in opt2.param_groups])
train(model2, opt2, sched2, range(ckpt["epoch"], 12), part)
print(all(a == b for a, b in zip(full, part)), len(part))
print([round(float(v), 5) for v in model2.weight.view(-1)], round(model2.bias.item(), 5))

# milestone errors and the ExponentialLR tail in SequentialLR
opt3 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
try:
    SequentialLR(opt3, schedulers=[LinearLR(opt3), ExponentialLR(opt3, 0.5)], milestones=[2, 3])
except ValueError as e:
    print("ValueError", e)
opt3 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
s = SequentialLR(opt3, schedulers=[LinearLR(opt3, start_factor=0.5, total_iters=2), ExponentialLR(opt3, 0.5)],
                 milestones=[3])
trace = []
for _ in range(7):
    opt3.step()
    trace.append(round(opt3.param_groups[0]["lr"], 6))
    s.step()
print(trace)
