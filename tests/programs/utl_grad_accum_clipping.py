# Gradient accumulation with loss scaling (loss / accum_steps) reproducing the full-batch gradient,
# clipping once per optimizer step with clip_grad_norm_ (returned total norm logged), clip_grad_value_,
# inf-norm, error_if_nonfinite, and skipping steps whose norm is not finite.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_, clip_grad_value_


def make():
    m = nn.Sequential(nn.Linear(4, 6), nn.SiLU(), nn.Linear(6, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p) * 0.5)
    return m


X = torch.stack([torch.linspace(-1, 1, 16) * k for k in (1.0, -0.5, 2.0, 0.25)], 1) + torch.cos(torch.arange(16.0))[:, None]
Y = torch.arange(16) % 2

full, accum = make(), make()
F.cross_entropy(full(X), Y).backward()
accum_steps = 4
for chunk_x, chunk_y in zip(X.chunk(accum_steps), Y.chunk(accum_steps)):
    (F.cross_entropy(accum(chunk_x), chunk_y) / accum_steps).backward()
for (n, a), b in zip(full.named_parameters(), accum.parameters()):
    print(n, torch.allclose(a.grad, b.grad, atol=1e-6), f"{a.grad.norm().item():.5f}")

# training with accumulation and clipping once per update
model = make()
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
micro = list(zip(X.split(4), Y.split(4)))
norms, losses = [], []
for step in range(12):
    if step % 2 == 0:
        opt.zero_grad()
    running = 0.0
    for xb, yb in micro[(step % 2) * 2:(step % 2) * 2 + 2]:
        loss = F.cross_entropy(model(xb), yb) / 2
        loss.backward()
        running += loss.item()
    if step % 2 == 1:
        total = clip_grad_norm_(model.parameters(), max_norm=1.0)
        norms.append(total)
        opt.step()
    losses.append(running)
print("losses:", [f"{l:.4f}" for l in losses])
print("norms:", [f"{n.item():.4f}" for n in norms])
print("norm type:", type(norms[0]).__name__, norms[0].dtype, norms[0].shape, norms[0].requires_grad)

# clip_grad_norm_ rescales only if norm > max_norm
g = nn.Parameter(torch.zeros(3))
g.grad = torch.tensor([3.0, 4.0, 0.0])
print(clip_grad_norm_(g, 10.0), g.grad)
print(clip_grad_norm_(g, 1.0), g.grad)
g.grad = torch.tensor([3.0, -7.0, 2.0])
print(clip_grad_norm_([g], 2.0, norm_type="inf"), g.grad)
g.grad = torch.tensor([3.0, -7.0, 2.0])
print(clip_grad_norm_([g], 5.0, norm_type=1), g.grad)
g.grad = torch.tensor([0.3, -7.0, 2.0])
print(clip_grad_value_(g, clip_value=0.5), g.grad)

# parameters without grads are skipped; empty list gives 0
h = nn.Parameter(torch.ones(2))
print(clip_grad_norm_([h], 1.0), h.grad)

# non-finite gradients: skip the step (what AMP-less loops do) or raise
g.grad = torch.tensor([1.0, float("nan"), 2.0])
total = clip_grad_norm_(g, 1.0)
print("non-finite:", total, torch.isfinite(total).item(), g.grad)
g.grad = torch.tensor([1.0, float("inf"), 2.0])
try:
    clip_grad_norm_(g, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(type(e).__name__, e)
