# Gradient clipping as used in adversarial training loops: clip_grad_norm_ with L2 / L1 / inf norms
# (returned total norm), clip_grad_value_, max_norm smaller than the norm, error_if_nonfinite,
# generators of parameters, single tensors, and the get_total_norm / clip_grads_with_norm_ split.
import math
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

torch.set_printoptions(precision=4)


def make_model():
    m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + 0.3 * i).view_as(p))
    return m


X = torch.stack([torch.linspace(-2, 2, 10), torch.linspace(0, 3, 10) ** 2, torch.sin(torch.arange(10.0))], 1)
Y = torch.stack([torch.linspace(5, -5, 10), torch.cos(torch.arange(10.0)) * 4], 1)


def fresh_grads():
    m = make_model()
    nn.functional.mse_loss(m(X), Y).backward()
    return m


for norm_type in [2.0, 1, float("inf"), 3]:
    m = fresh_grads()
    before = [p.grad.clone() for p in m.parameters()]
    total = clip_grad_norm_(m.parameters(), max_norm=1.0, norm_type=norm_type)
    after = torch.cat([p.grad.flatten() for p in m.parameters()])
    new_norm = torch.linalg.vector_norm(after, ord=norm_type)
    print(f"norm_type={norm_type} total={total.item():.4f} after={new_norm.item():.4f}",
          total.dtype, total.shape, total.requires_grad)
    ratio = m[0].weight.grad / before[0]
    print("  scale", f"{ratio.flatten()[0].item():.5f}")

m = fresh_grads()
total = clip_grad_norm_(m.parameters(), max_norm=1000.0)
print("big max_norm leaves grads:", f"{total.item():.4f}", m[2].bias.grad)

m = fresh_grads()
clip_grad_value_(m.parameters(), clip_value=0.5)
print(m[2].weight.grad)
print(m[0].bias.grad)

# single tensor and a generator over named parameters
w = torch.tensor([3.0, 4.0], requires_grad=True)
(w * torch.tensor([1.0, 1.0])).sum().backward()
w.grad = torch.tensor([3.0, 4.0])
print(clip_grad_norm_(w, 1.0), w.grad)
m = fresh_grads()
print(f"{clip_grad_norm_((p for n, p in m.named_parameters() if 'weight' in n), 0.1).item():.4f}")
print(m[0].weight.grad.norm().item() < 0.1 + 1e-6, m[0].bias.grad.abs().max().item() > 0.1)

# parameters without grads are skipped; empty lists give 0
m = make_model()
print(clip_grad_norm_(m.parameters(), 1.0))
print(clip_grad_norm_([], 1.0))

# non-finite gradients
m = fresh_grads()
m[0].weight.grad[0, 0] = float("nan")
print(clip_grad_norm_(m.parameters(), 1.0))
m[0].weight.grad[0, 0] = float("inf")
try:
    clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(type(e).__name__, e)

# two-step API (PyTorch 2.6+): get_total_norm then clip_grads_with_norm_
m = fresh_grads()
grads = [p.grad for p in m.parameters() if p.grad is not None]
total = torch.nn.utils.get_total_norm(grads, norm_type=2.0)
torch.nn.utils.clip_grads_with_norm_(m.parameters(), max_norm=0.5, total_norm=total)
print(f"{total.item():.4f}", f"{torch.nn.utils.get_total_norm([p.grad for p in m.parameters()]).item():.4f}")
print(math.isclose(torch.nn.utils.get_total_norm([torch.tensor([3.0, 4.0])]).item(), 5.0))

# clipping inside a training loop
m = make_model()
opt = torch.optim.SGD(m.parameters(), lr=0.05)
for step in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(X), Y)
    loss.backward()
    gn = clip_grad_norm_(m.parameters(), max_norm=2.0, foreach=True)
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f} grad norm {gn.item():.3f}")
