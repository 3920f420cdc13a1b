# "Learning PyTorch with Examples": a custom autograd.Function for the Legendre polynomial P3.
import math

import torch


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x + 0.3) + 0.1

a = torch.full((), 0.2, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.05, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)

learning_rate = 5e-6
for t in range(1000):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
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

print(f"Result: y = {a.item():.4f} + {b.item():.4f} * P3({c.item():.4f} + {d.item():.4f} x)")
out = LegendrePolynomial3.apply(torch.tensor([0.5, -1.0], requires_grad=True))
print(out)
print(type(out.grad_fn).__name__)
print(torch.autograd.gradcheck(LegendrePolynomial3.apply,
                               (torch.linspace(-1, 1, 5, dtype=torch.double, requires_grad=True),)))
