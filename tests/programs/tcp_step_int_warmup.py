# A compiled training step that takes the Python int step number for a manual LR warmup and a
# Python list of tensors of varying length — a new int each call (PyTorch makes it dynamic after
# the second value; every value must give the right numbers either way).
import torch
import torch.nn as nn

w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
x = torch.stack([torch.linspace(-1, 1, 3) * (k + 1) / 4 for k in range(8)])
y = x @ torch.tensor([0.5, -1.0, 2.0]) + 0.25


@torch.compile
def train_step(step, base_lr=0.3, warmup=5):
    lr = base_lr * min(1.0, (step + 1) / warmup)
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w.sub_(lr * w.grad)
        b.sub_(lr * b.grad)
        w.grad.zero_()
        b.grad.zero_()
    return loss.detach(), lr


for step in range(12):
    loss, lr = train_step(step)
    if step % 2 == 0 or step == 11:
        print(f"step {step:2d} lr {lr:.3f} loss {loss.item():.5f}")
print(torch.round(w.detach(), decimals=3), torch.round(b.detach(), decimals=3))


@torch.compile
def weighted_sum(tensors, weights):
    total = torch.zeros_like(tensors[0])
    for t, c in zip(tensors, weights):
        total = total + c * t
    return total


parts = [torch.arange(4.0) * (i + 1) for i in range(5)]
for n in (2, 3, 5):
    print(n, weighted_sum(parts[:n], [1.0 / (i + 1) for i in range(n)]))
print(weighted_sum(parts[:2], [2, -1]))
