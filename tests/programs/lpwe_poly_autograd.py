# "Learning PyTorch with Examples": the same fit with autograd doing the backward pass.
import math

import torch

dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)

a = torch.tensor(0.1, dtype=dtype, requires_grad=True)
b = torch.tensor(-0.2, dtype=dtype, requires_grad=True)
c = torch.tensor(0.3, dtype=dtype, requires_grad=True)
d = torch.tensor(-0.05, dtype=dtype, requires_grad=True)
print(a)

learning_rate = 1e-6
for t in range(1000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 250 == 249:
        print(t, f"{loss.item():.5g}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")
print(loss.grad_fn, a.is_leaf, a.grad, y_pred.requires_grad)
