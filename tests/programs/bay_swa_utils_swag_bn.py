# SWA/SWAG with torch.optim.swa_utils: AveragedModel accumulating a running average, SWALR
# annealing, update_bn to recompute BatchNorm statistics, and an EMA model with use_buffers.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
from torch.utils.data import TensorDataset, DataLoader
from torch.nn.utils import parameters_to_vector

x = torch.stack([torch.linspace(-1, 1, 32), torch.cos(torch.linspace(0, 5, 32))], 1)
y = (x[:, :1] - x[:, 1:]).sin()
loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=False)

model = nn.Sequential(nn.Linear(2, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.add_(-p + 0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) + 2 * i).reshape(p.shape))

swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_sched = SWALR(opt, swa_lr=0.02, anneal_epochs=2, anneal_strategy="linear")
swa_start = 5
sq = None
for epoch in range(10):
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_model.update_parameters(model)
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        v = parameters_to_vector(model.parameters()).detach()
        sq = v ** 2 if sq is None else sq + v ** 2
        swa_sched.step()
    else:
        sched.step()
    print(f"epoch {epoch} loss {loss.item():.3f} lr {opt.param_groups[0]['lr']:.5f} n_avg {swa_model.n_averaged.item()}")

print(type(swa_model.n_averaged).__name__, swa_model.n_averaged.dtype)
print(list(swa_model.state_dict().keys())[:4], len(swa_model.state_dict()))
bn = swa_model.module[1]
print("bn before", bn.running_mean[:3].round(decimals=4), bn.num_batches_tracked)
update_bn(loader, swa_model)
print("bn after ", bn.running_mean[:3].round(decimals=4), bn.num_batches_tracked, bn.momentum)
mean_vec = parameters_to_vector(swa_model.module.parameters()).detach()
swag_var = (sq / swa_model.n_averaged - mean_vec ** 2).clamp_min(0)
print("swag var", swag_var.shape, f"{swag_var.max().item():.2e}")

swa_model.eval()
model.eval()
ema_model.eval()
with torch.no_grad():
    print("swa  mse", f"{F.mse_loss(swa_model(x), y).item():.3f}")
    print("last mse", f"{F.mse_loss(model(x), y).item():.3f}")
    print("ema  mse", f"{F.mse_loss(ema_model(x), y).item():.3f}")
print("ema bn tracked", ema_model.module[1].num_batches_tracked, ema_model.n_averaged)
print(swa_sched.state_dict()["anneal_epochs"], swa_sched.get_last_lr())
try:
    SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
except ValueError as e:
    print(type(e).__name__, e)
