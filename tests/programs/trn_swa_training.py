# Stochastic Weight Averaging as in the PyTorch SWA tutorial: AveragedModel updated each epoch
# after swa_start, SWALR annealing (cos / linear) printed per epoch, update_bn over a loader,
# EMA averaging via get_ema_multi_avg_fn, and the averaged model's state_dict.
import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn
from torch.utils.data import DataLoader, TensorDataset

X = torch.linspace(-1, 1, 16).view(8, 2)
Y = (X[:, :1] * 2 - X[:, 1:] + 0.5)
loader = DataLoader(TensorDataset(X, Y), batch_size=4)

model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.6, 0.8, p.numel()).view_as(p) * (1 + 0.2 * i))

opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_model = AveragedModel(model)
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="cos")
print(swa_model.n_averaged, list(swa_model.state_dict().keys())[:2])
swa_start = 3
for epoch in range(7):
    for xb, yb in loader:
        opt.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        opt.step()
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_sched.step()
    else:
        sched.step()
    print(epoch, [round(v, 5) for v in (swa_sched if epoch >= swa_start else sched).get_last_lr()],
          swa_model.n_averaged)

print(swa_model.module[0].bias, model[0].bias)
print(swa_model.module[1].running_mean)
update_bn(loader, swa_model)
print(swa_model.module[1].running_mean, swa_model.module[1].momentum, swa_model.module[1].num_batches_tracked)
swa_model.eval()
print(swa_model(X[:3]))
print(type(swa_model.module).__name__, swa_model.n_averaged.dtype, swa_model.training)

opt = torch.optim.SGD(model.parameters(), lr=1.0)
lin = SWALR(opt, swa_lr=0.2, anneal_epochs=4, anneal_strategy="linear")
out = [round(opt.param_groups[0]["lr"], 5)]
for _ in range(6):
    opt.step()
    lin.step()
    out.append(round(opt.param_groups[0]["lr"], 5))
print(out)
try:
    SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
except ValueError as e:
    print(type(e).__name__, e)
try:
    SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
except ValueError as e:
    print(type(e).__name__, e)

ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
for k in range(3):
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1)
    ema.update_parameters(model)
print(ema.module[3].weight, model[3].weight, ema.n_averaged)
custom = AveragedModel(model, avg_fn=lambda avg, new, n: 0.5 * avg + 0.5 * new, use_buffers=True)
with torch.no_grad():
    model[3].bias.fill_(2.0)
custom.update_parameters(model)
custom.update_parameters(model)
print(custom.module[3].bias, custom.module[1].num_batches_tracked)
