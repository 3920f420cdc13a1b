# A research-repo training loop: gradient accumulation over micro-batches, clip_grad_norm_ (logging the
# returned pre-clip norm), clip_grad_value_, and a timm-style EMA of weights using torch._foreach ops.
import copy

import torch
import torch.nn as nn


class ModelEma:
    def __init__(self, model, decay=0.9):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        ema_params = list(self.module.parameters())
        params = list(model.parameters())
        torch._foreach_mul_(ema_params, self.decay)
        torch._foreach_add_(ema_params, params, alpha=1.0 - self.decay)
        for eb, b in zip(self.module.buffers(), model.buffers()):
            eb.copy_(b)

    @torch.no_grad()
    def update_lerp(self, model):
        torch._foreach_lerp_(list(self.module.parameters()), list(model.parameters()), 1.0 - self.decay)


model = nn.Sequential(nn.Linear(4, 16), nn.LayerNorm(16), nn.SiLU(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 2 * i).view_as(p))
ema = ModelEma(model, decay=0.8)
ema2 = ModelEma(model, decay=0.8)

n = 48
t = torch.arange(n, dtype=torch.float32) / n
x = torch.stack([torch.sin(6 * t), torch.cos(6 * t), t, t * t], 1)
y = (3 * torch.sin(6 * t) - 2 * t).unsqueeze(1)
opt = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.01, foreach=True)
accum_steps = 4
micro = 4

step = 0
for epoch in range(3):
    for i in range(0, n, micro):
        xb, yb = x[i:i + micro], y[i:i + micro]
        loss = nn.functional.mse_loss(model(xb), yb) / accum_steps
        loss.backward()
        if (i // micro + 1) % accum_steps == 0:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            after = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()])
            opt.step()
            opt.zero_grad(set_to_none=True)
            ema.update(model)
            ema2.update_lerp(model)
            step += 1
            if step % 3 == 0:
                print(step, f"norm {norm.item():.4f}", f"after {after.item():.4f}", type(norm).__name__,
                      norm.dtype, norm.shape, norm.requires_grad)

with torch.no_grad():
    full = nn.functional.mse_loss(model(x), y).item()
    e1 = nn.functional.mse_loss(ema.module(x), y).item()
    e2 = nn.functional.mse_loss(ema2.module(x), y).item()
print(f"model {full:.4f} ema {e1:.4f} ema_lerp {e2:.4f}")
print(all(torch.allclose(a, b, atol=1e-6) for a, b in zip(ema.module.parameters(), ema2.module.parameters())))
print([p.requires_grad for p in ema.module.parameters()][:2], ema.module.training)

# clip_grad_value_ and other norm types
loss = nn.functional.mse_loss(model(x), y) * 100
loss.backward()
g = model[0].bias.grad.clone()
inf_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type="inf")
print(f"inf norm {inf_norm.item():.3f}", f"{model[0].bias.grad.abs().max().item():.4f}")
opt.zero_grad()
loss = nn.functional.mse_loss(model(x), y) * 100
loss.backward()
print(torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1))
print(model[3].weight.grad.abs().max().item() <= 0.1, model[0].bias.grad[:4])
one_norm = torch.nn.utils.clip_grad_norm_(model[3].weight, 1e6, norm_type=1.0, foreach=False)
print(f"{one_norm.item():.4f}", round(model[3].weight.grad.abs().sum().item(), 4) == round(one_norm.item(), 4))

# non-finite gradients
model[3].bias.grad = torch.tensor([float("nan")])
try:
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
print(torch.nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
