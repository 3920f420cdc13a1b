# "Learning PyTorch with Examples": fit a third-order polynomial to sin(x) with tensors, gradients by hand.
import math

import torch

dtype = torch.float
device = torch.device("cpu")

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

# The tutorial draws these with randn; fixed values keep the run comparable.
a = torch.tensor(0.1, device=device, dtype=dtype)
b = torch.tensor(-0.2, device=device, dtype=dtype)
c = torch.tensor(0.3, device=device, dtype=dtype)
d = torch.tensor(-0.05, device=device, dtype=dtype)

learning_rate = 1e-6
for t in range(1000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 250 == 249:
        print(t, f"{loss:.5g}")

    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()

    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f"Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3")
print(a.dtype, a.shape, x.shape, grad_y_pred.dtype)
