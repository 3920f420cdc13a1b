# Stochastic Weight Averaging with torch.optim.swa_utils as in the PyTorch blog post:
# AveragedModel (equal and EMA averaging), SWALR annealing, update_bn with a DataLoader.
import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Sequential(nn.Linear(2, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p))

t = torch.linspace(-1, 1, 32)
x = torch.stack([t, torch.sin(3 * t)], 1)
y = (t ** 2 - 0.3 * torch.sin(3 * t)).unsqueeze(1)
loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=False)

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_start = 5
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
print(type(swa_model.module).__name__, swa_model.n_averaged, swa_model.n_averaged.dtype)
print([k for k in swa_model.state_dict().keys()][:4], len(swa_model.state_dict()))

for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        ema_model.update_parameters(model)
        total += loss.item()
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_sched.step()
    else:
        sched.step()
    print(epoch, f"{total / len(loader):.4f}", f"{opt.param_groups[0]['lr']:.5f}", int(swa_model.n_averaged))

bn = swa_model.module[1]
print("before update_bn", bn.num_batches_tracked.item())
update_bn(loader, swa_model)
print("after update_bn", bn.num_batches_tracked.item(), bn.momentum, swa_model.training)
with torch.no_grad():
    swa_model.eval()
    model.eval()
    ema_model.eval()
    print("swa", f"{nn.functional.mse_loss(swa_model(x), y).item():.4f}")
    print("ema", f"{nn.functional.mse_loss(ema_model(x), y).item():.4f}")
    print("last", f"{nn.functional.mse_loss(model(x), y).item():.4f}")
print(int(ema_model.n_averaged), sorted(swa_sched.state_dict().keys()))
print(swa_sched.get_last_lr(), swa_sched.anneal_epochs)

# custom avg_fn and use_buffers=True
avg = AveragedModel(model, avg_fn=lambda avg_p, p, n: avg_p + (p - avg_p) / (n + 1), use_buffers=True)
avg.update_parameters(model)
avg.update_parameters(model)
print(int(avg.n_averaged), torch.allclose(avg.module[0].weight, model[0].weight))
try:
    SWALR(opt, swa_lr=0.05, anneal_strategy="exp")
except ValueError as e:
    print(type(e).__name__, e)
try:
    SWALR(opt, swa_lr=0.05, anneal_epochs=-1)
except ValueError as e:
    print(type(e).__name__, e)
