# Exponential moving average of model weights (timm ModelEmaV2 / torch.optim.swa_utils style):
# deepcopy the model, then under no_grad update with mul_().add_(), lerp_ and copy_.
import copy

import torch
import torch.nn as nn


class ModelEma(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def _update(self, model, update_fn):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)


def make_model():
    model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2), nn.Linear(2, 1))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
    return model


model = make_model()
ema = ModelEma(model, decay=0.5)
print(ema.module[0].weight.requires_grad, ema.module.training, model.training)
print(list(ema.state_dict().keys()))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.arange(12.).view(4, 3) / 10
for step in range(3):
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    ema.update(model)
    print(step, f"{loss.item():.3f}", ema.module[0].bias, ema.module[1].num_batches_tracked)
print(ema.module[1].running_mean, model[1].running_mean)

# in-place recipes on raw parameter lists
shadow = [p.detach().clone() for p in model.parameters()]
with torch.no_grad():
    for s, p in zip(shadow, model.parameters()):
        s.mul_(0.9).add_(p, alpha=0.1)
print(shadow[0])
with torch.no_grad():
    for s, p in zip(shadow, model.parameters()):
        s.lerp_(p, 0.5)
print(shadow[2], shadow[2].requires_grad)
ema_p = torch.zeros(3)
print(ema_p.lerp(torch.ones(3), torch.tensor([0., 0.5, 1.])), torch.lerp(ema_p, torch.full((3,), 4.), 0.25))

# timm ModelEmaV3-style update through the foreach kernels
ema_params = [torch.zeros_like(p) for p in model.parameters()]
model_params = [p.detach() for p in model.parameters()]
with torch.no_grad():
    torch._foreach_lerp_(ema_params, model_params, weight=1. - 0.75)
    print(ema_params[0])
    torch._foreach_mul_(ema_params, 0.5)
    torch._foreach_add_(ema_params, model_params, alpha=0.5)
print(ema_params[3], torch._foreach_norm(ema_params)[3])
try:
    torch.zeros(3, dtype=torch.long).lerp_(torch.ones(3, dtype=torch.long), 0.5)
except RuntimeError as e:
    print(type(e).__name__, e)

# the averaged model from torch.optim.swa_utils
swa = torch.optim.swa_utils.AveragedModel(model)
print(swa.n_averaged, type(swa.module).__name__)
swa.update_parameters(model)
with torch.no_grad():
    model[0].weight.add_(1.0)
swa.update_parameters(model)
print(swa.n_averaged, torch.allclose(swa.module[0].weight, model[0].weight - 0.5, atol=1e-5))
print(swa.module[2].bias, [k for k, _ in swa.named_buffers()])
try:
    shadow[0].copy_(torch.ones(5))
except RuntimeError as e:
    print(type(e).__name__, e)
leaf = nn.Parameter(torch.ones(2))
try:
    leaf.mul_(0.5)
except RuntimeError as e:
    print(type(e).__name__, e)
