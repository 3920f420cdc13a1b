# DP-SGD style per-sample gradients with torch.func (Opacus-free): vmap(grad(loss)) over a conv
# net with a GroupNorm, per-sample L2 clipping, aggregation, and a check against a Python loop.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.set_default_dtype(torch.float64)

model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.GroupNorm(2, 4), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
                      nn.Flatten(), nn.Linear(16, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.77 + i).view_as(p))

n = 6
images = torch.sin(torch.arange(n * 36, dtype=torch.float64).view(n, 1, 6, 6) * 0.19)
labels = torch.tensor([0, 1, 2, 1, 0, 2])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    out = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.cross_entropy(out, target.unsqueeze(0))


per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, images, labels)
print({k: tuple(v.shape) for k, v in per_sample.items()})

flat = torch.cat([g.reshape(n, -1) for g in per_sample.values()], dim=1)
norms = flat.norm(dim=1)
print("per-sample grad norms", [f"{v:.5f}" for v in norms.tolist()])
max_norm = 0.5
factor = (max_norm / (norms + 1e-6)).clamp(max=1.0)
print("clip factors", [f"{v:.4f}" for v in factor.tolist()])
clipped = {k: torch.einsum("n,n...->...", factor, g) / n for k, g in per_sample.items()}
print("clipped mean grad norm", f"{torch.cat([c.flatten() for c in clipped.values()]).norm().item():.6f}")

for i in range(n):
    model.zero_grad()
    F.cross_entropy(model(images[i:i + 1]), labels[i:i + 1]).backward()
    ok = all(torch.allclose(p.grad, per_sample[k][i]) for k, p in model.named_parameters())
    if not ok:
        print("mismatch at", i)
print("loop check done")

model.zero_grad()
F.cross_entropy(model(images), labels).backward()
mean_grad = {k: g.mean(0) for k, g in per_sample.items()}
print("mean of per-sample == batch grad:",
      all(torch.allclose(p.grad, mean_grad[k]) for k, p in model.named_parameters()))

# one private SGD step (noise omitted to keep output deterministic)
with torch.no_grad():
    new_params = {k: params[k] - 0.1 * clipped[k] for k in params}
before = F.cross_entropy(functional_call(model, (params, buffers), (images,)), labels)
after = F.cross_entropy(functional_call(model, (new_params, buffers), (images,)), labels)
print(f"loss {before.item():.6f} -> {after.item():.6f}")
