# timm ModelEmaV3: deepcopy + eval + requires_grad_(False), decay warmup 1 - (1 + step/gamma)**-power,
# params updated with torch._foreach_lerp_ (or _foreach_mul_ + _foreach_add_(alpha=...)) and buffers
# copied with torch._foreach_copy_, all under torch.no_grad(); module_ema.state_dict() round-trip.
import copy
import io
import torch
import torch.nn as nn


class ModelEmaV3(nn.Module):
    def __init__(self, model, decay=0.9999, min_decay=0.0, use_warmup=False, warmup_gamma=1.0,
                 warmup_power=2 / 3, foreach=True, exclude_buffers=False):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.module.requires_grad_(False)
        self.decay, self.min_decay = decay, min_decay
        self.use_warmup, self.warmup_gamma, self.warmup_power = use_warmup, warmup_gamma, warmup_power
        self.foreach, self.exclude_buffers = foreach, exclude_buffers

    def get_decay(self, step=None):
        if step is None:
            return self.decay
        step = max(0, step - 0 - 1)
        if step <= 0:
            return 0.0
        if self.use_warmup:
            decay = 1 - (1 + step / self.warmup_gamma) ** -self.warmup_power
            decay = max(min(decay, self.decay), self.min_decay)
        else:
            decay = self.decay
        return decay

    @torch.no_grad()
    def update(self, model, step=None):
        decay = self.get_decay(step)
        ema_params = tuple(self.module.parameters())
        model_params = tuple(model.parameters())
        if self.foreach:
            torch._foreach_lerp_(ema_params, model_params, weight=1. - decay)
        else:
            torch._foreach_mul_(ema_params, decay)
            torch._foreach_add_(ema_params, model_params, alpha=1 - decay)
        if not self.exclude_buffers:
            ema_b = [b for b in self.module.buffers() if b.dtype.is_floating_point]
            model_b = [b for b in model.buffers() if b.dtype.is_floating_point]
            torch._foreach_copy_(ema_b, model_b)
        return decay

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape) * 0.5)

emas = {"lerp": ModelEmaV3(model, decay=0.99, use_warmup=True, foreach=True),
        "muladd": ModelEmaV3(model, decay=0.99, use_warmup=True, foreach=False),
        "nobuf": ModelEmaV3(model, decay=0.9, exclude_buffers=True)}
e = emas["lerp"]
print(e.module.training, all(not p.requires_grad for p in e.module.parameters()))
print([round(e.get_decay(s), 6) for s in (None, 0, 1, 2, 5, 10, 100, 10000)])

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.linspace(-2, 2, 24).reshape(8, 3)
y = (x[:, :1] * x[:, 1:2] - x[:, 2:]).tanh()
for step in range(1, 16):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    decays = [round(m.update(model, step), 5) for m in emas.values()]
    if step % 5 == 0:
        with torch.no_grad():
            ev = [f"{nn.functional.mse_loss(m(x), y).item():.5f}" for m in emas.values()]
        print(step, f"{loss.item():.5f}", decays, ev)

a, b = emas["lerp"].module, emas["muladd"].module
print(all(torch.allclose(p, q, atol=1e-6) for p, q in zip(a.parameters(), b.parameters())))
print(a[1].running_mean, a[1].num_batches_tracked, model[1].num_batches_tracked)
print(emas["nobuf"].module[1].running_var)
print(a[0].weight)

buf = io.BytesIO()
torch.save(emas["lerp"].state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(list(sd.keys())[:4], len(sd))
fresh = ModelEmaV3(model)
print(fresh.load_state_dict(sd))
print(torch.equal(fresh.module[3].bias, a[3].bias), fresh.module[3].bias.requires_grad)
lst = [torch.ones(2), torch.ones(3)]
try:
    torch._foreach_lerp_(lst, [torch.zeros(2)], 0.5)
except RuntimeError as err:
    print(type(err).__name__, err)
print(torch._foreach_lerp(lst, [torch.zeros(2), torch.full((3,), 4.0)], 0.25))
