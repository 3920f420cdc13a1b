# Compiled functions with Python control flow on shapes and arguments, no_grad inside, and eager mixing.
import torch


@torch.compile
def normalize(x, eps=1e-5, center=True):
    if center:
        x = x - x.mean(dim=-1, keepdim=True)
    if x.dim() == 3:
        x = x.flatten(0, 1)
    return x / torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)


a = torch.arange(8, dtype=torch.float32).view(2, 4)
print(normalize(a))
print(normalize(a, center=False))
b = torch.arange(12, dtype=torch.float32).view(3, 1, 4) * 0.5
out = normalize(b)
print(out.shape, out[-1])


@torch.compile
def ema_update(avg, new, decay):
    with torch.no_grad():
        avg.mul_(decay).add_(new, alpha=1 - decay)
    return avg


avg = torch.zeros(3)
for step in range(4):
    new = torch.full((3,), float(step + 1)) * torch.tensor([1.0, -1.0, 0.5])
    ema_update(avg, new, 0.5)
    print(step, avg)

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = normalize(w.view(1, 3) * 2.0).sum() + (w ** 2).sum()   # compiled then eager
y.backward()
print(f"{y.item():.4f}", w.grad)
