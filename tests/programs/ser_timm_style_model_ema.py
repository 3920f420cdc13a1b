# timm-style ModelEmaV2: an EMA copy updated through state_dict().values() (buffers included,
# even the int64 num_batches_tracked), _foreach_lerp_ variant, and saving both the model and
# its EMA in one checkpoint that a fresh run restores.
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.8):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def _update(self, model, update_fn):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1.0 - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)


model = nn.Sequential(nn.Linear(3, 5, bias=False), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)
ema = ModelEmaV2(model)
print([k for k in ema.state_dict()][:3], len(ema.state_dict()))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.linspace(-1, 1, 18).view(6, 3)
y = x.sum(1, keepdim=True).sin()
for step in range(10):
    model.train()
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    ema.update(model)
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", ema.module[1].num_batches_tracked.item(), model[1].num_batches_tracked.item())
print(ema.module[1].num_batches_tracked, ema.module[1].num_batches_tracked.dtype)
print(ema.module[1].running_mean)

ema_params = [p.detach().clone() for p in model.parameters()]
live = [p.detach() for p in model.parameters()]
torch._foreach_lerp_(ema_params, live, 0.2)
print(torch.allclose(ema_params[0], live[0]), len(ema_params))

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "model_ema": ema.state_dict(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck), list(ck["model_ema"].keys())[-1])
fresh = nn.Sequential(nn.Linear(3, 5, bias=False), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1))
fresh.load_state_dict(ck["model"])
ema2 = ModelEmaV2(fresh)
print(ema2.load_state_dict(ck["model_ema"]))
ema2.module.eval()
ema.module.eval()
with torch.no_grad():
    print(torch.equal(ema2.module(x), ema.module(x)), f"{F.mse_loss(ema2.module(x), y).item():.4f}")
try:
    fresh.load_state_dict(ck["model_ema"])
except RuntimeError as e:
    print(str(e).splitlines()[1][:70])
