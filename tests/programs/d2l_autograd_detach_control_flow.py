# d2l.ai 2.4 Calculus + 2.5 Automatic Differentiation, without the d2l package.
import numpy as np
import torch


def f(x):
    return 3 * x ** 2 - 4 * x


for h in 10.0 ** np.arange(-1, -6, -1):
    print(f'h={h:.5f}, numerical limit={(f(1 + h) - f(1)) / h:.5f}')

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad, x.grad == 4 * x)
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

# backward for non-scalar variables
x.grad.zero_()
y = x * x
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)

# detaching computation
x.grad.zero_()
y = x * x
u = y.detach()
print(u.requires_grad, u.grad_fn, y.grad_fn)
z = u * x
z.sum().backward()
print(x.grad == u, x.grad)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


# gradients and Python control flow
def g(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


for start in (0.3, -0.7, torch.tensor(1.5)):
    a = torch.tensor(start, requires_grad=True) if not torch.is_tensor(start) else start.clone().requires_grad_()
    d = g(a)
    d.backward()
    print(a, d, a.grad, a.grad == d / a)

a = torch.arange(1.0, 4.0).requires_grad_()
d = g(a)
d.sum().backward()
print(d, a.grad, d.grad_fn)

# backward twice without retain_graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:90])

# sin(x) and its derivative at some points, like the d2l exercise
x = torch.linspace(-np.pi, np.pi, 9, requires_grad=True)
y = torch.sin(x)
y.backward(torch.ones_like(y))
print(x.grad)
print(torch.allclose(x.grad, torch.cos(x.detach())))
print(y.detach().numpy().round(3))
