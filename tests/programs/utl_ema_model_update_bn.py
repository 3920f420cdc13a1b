# timm-style ModelEmaV2 (deepcopy + lerp of params, copy of buffers) compared with
# torch.optim.swa_utils.AveragedModel(get_ema_multi_avg_fn), then update_bn on a loader of (x, y) batches.
import copy

import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn, get_swa_multi_avg_fn, update_bn
from torch.utils.data import DataLoader, TensorDataset


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.is_floating_point():
                ema_v.copy_(self.decay * ema_v + (1.0 - self.decay) * model_v)
            else:
                ema_v.copy_(model_v)


model = nn.Sequential(nn.Linear(2, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + 0.5 * i).view_as(p) * 0.6)

x = torch.stack([torch.linspace(-2, 2, 24), torch.cos(torch.linspace(0, 6, 24))], 1)
y = (x[:, :1] ** 2 - x[:, 1:]) * 0.5
loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=False)

ema = ModelEmaV2(model, decay=0.9)
avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
swa = AveragedModel(model, multi_avg_fn=get_swa_multi_avg_fn())
print("ema training flag:", ema.module.training, "avg training:", avg.training)
print("avg keys:", list(avg.state_dict().keys()))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(4):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
        ema.update(model)
        avg.update_parameters(model)
        swa.update_parameters(model)
    print(epoch, f"{total / len(loader):.4f}")

print("n_averaged:", avg.n_averaged, swa.n_averaged.item())
w_ema, w_avg = ema.module[0].weight, avg.module[0].weight
# AveragedModel's EMA starts from a copy at the first update, ModelEmaV2 from the initial weights
print("ema vs avg differ:", not torch.allclose(w_ema, w_avg))
print("ema weight:", w_ema.detach().round(decimals=3))
print("avg weight:", w_avg.detach().round(decimals=3))
print("swa bias:", swa.module[3].bias.detach().round(decimals=4))
print("ema running_mean:", ema.module[1].running_mean.round(decimals=3))
print("avg running_mean (not averaged):", avg.module[1].running_mean)
print("num_batches_tracked:", ema.module[1].num_batches_tracked, avg.module[1].num_batches_tracked)

# update_bn recomputes BN statistics with a cumulative average over the loader
momentum_before = avg.module[1].momentum
update_bn(loader, avg)
print("after update_bn:", avg.module[1].running_mean.round(decimals=3), avg.module[1].running_var.round(decimals=3))
print("momentum restored:", avg.module[1].momentum == momentum_before, "training:", avg.training)
print("num_batches_tracked:", avg.module[1].num_batches_tracked)
with torch.no_grad():
    h = avg.module[0](x)
print("matches full-batch stats:", torch.allclose(avg.module[1].running_mean, h.mean(0), atol=1e-5),
      torch.allclose(avg.module[1].running_var, h.var(0), atol=1e-4))
avg.eval()
with torch.no_grad():
    print("eval mse:", f"{nn.functional.mse_loss(avg(x), y).item():.4f}",
          f"{nn.functional.mse_loss(ema.module(x), y).item():.4f}")

no_bn = AveragedModel(nn.Linear(2, 1))
update_bn(loader, no_bn)
print("no-bn model untouched:", no_bn.n_averaged.item())
