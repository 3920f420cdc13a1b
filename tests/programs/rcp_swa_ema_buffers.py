# torch.optim.swa_utils beyond the tutorial: EMA via get_ema_avg_fn / get_ema_multi_avg_fn,
# SWA via get_swa_multi_avg_fn, use_buffers=True with BatchNorm, update_bn on dict batches,
# SWALR with cos annealing and per-group swa_lr, and the averaged model's state_dict.
import io

import torch
import torch.nn as nn
from torch.optim.swa_utils import (SWALR, AveragedModel, get_ema_avg_fn, get_ema_multi_avg_fn,
                                   get_swa_multi_avg_fn, update_bn)


def make():
    m = nn.Sequential(nn.Linear(2, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) + 0.3 * i).view_as(p))
    return m


t = torch.linspace(-2, 2, 12)
x = torch.stack([t, t.sin()], 1)
y = (t.cos() + 0.1 * t).unsqueeze(1)

model = make()
opt = torch.optim.SGD([{"params": model[0].parameters()}, {"params": model[3].parameters(), "lr": 0.02}],
                      lr=0.05, momentum=0.5)
ema1 = AveragedModel(model, avg_fn=get_ema_avg_fn(0.8))
ema2 = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.8))
swa = AveragedModel(model, use_buffers=True)
swa2 = AveragedModel(model, multi_avg_fn=get_swa_multi_avg_fn())
swalr = SWALR(opt, swa_lr=[0.01, 0.005], anneal_epochs=4, anneal_strategy="cos")
for step in range(10):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    swalr.step()
    for avg in (ema1, ema2, swa, swa2):
        avg.update_parameters(model)
    print(step, f"{loss.item():.5f}", [round(g["lr"], 6) for g in opt.param_groups])

p1 = torch.cat([p.detach().view(-1) for p in ema1.parameters()])
p2 = torch.cat([p.detach().view(-1) for p in ema2.parameters()])
print(torch.allclose(p1, p2), ema1.n_averaged.item(), swa.n_averaged.item())
print(torch.allclose(swa.module[0].weight, swa2.module[0].weight), swa2.module[0].weight)
print([round(v, 4) for v in p1[:6].tolist()])
print(list(swa.state_dict().keys()))
bn = swa.module[1]
print([round(v, 4) for v in bn.running_mean.tolist()], bn.num_batches_tracked.item())
print([round(v, 4) for v in ema1.module[1].running_mean.tolist()], ema1.module[1].num_batches_tracked.item())


class DictData(torch.utils.data.Dataset):
    def __len__(self):
        return 12

    def __getitem__(self, i):
        return {"input": x[i], "target": y[i]}


class Wrapper(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, batch):
        return self.inner(batch["input"] if isinstance(batch, dict) else batch)


loader = torch.utils.data.DataLoader(DictData(), batch_size=4)
ema1.module[1].momentum = 0.3
update_bn([b["input"] for b in loader], ema1)
print(ema1.module[1].momentum, ema1.module[1].num_batches_tracked.item())
print([round(v, 4) for v in ema1.module[1].running_mean.tolist()])
print([round(v, 4) for v in ema1.module[1].running_var.tolist()])
update_bn(loader, Wrapper(ema2.module))
print([round(v, 4) for v in ema2.module[1].running_mean.tolist()])

buf = io.BytesIO()
torch.save(swa.state_dict(), buf)
buf.seek(0)
fresh = AveragedModel(make())
fresh.load_state_dict(torch.load(buf))
print(fresh.n_averaged, torch.equal(fresh.module[0].weight, swa.module[0].weight))
print(swalr.state_dict()["anneal_epochs"], swalr.state_dict()["anneal_func"] if "anneal_func" in swalr.state_dict() else "-")
for bad in [dict(swa_lr=0.1, anneal_strategy="exp"), dict(swa_lr=0.1, anneal_epochs=-1), dict(swa_lr=[0.1])]:
    try:
        SWALR(opt, **bad)
    except ValueError as e:
        print("ValueError", e)
