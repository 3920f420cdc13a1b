# torch.autograd.functional with tuple inputs/outputs, create_graph, strict, vectorize flags.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x, y):
    return x * y.sum(), (x ** 2).sum() + y.prod()


x = torch.tensor([1.0, 2.0])
y = torch.tensor([3.0, -1.0, 0.5])
J = jacobian(f, (x, y))
print(type(J).__name__, len(J), type(J[0]).__name__, len(J[0]))
for i, row in enumerate(J):
    for j, block in enumerate(row):
        print(i, j, tuple(block.shape), block)

Jv = jacobian(f, (x, y), vectorize=True)
print(all(torch.allclose(a, b) for ra, rb in zip(J, Jv) for a, b in zip(ra, rb)))

# strategy must be checked
try:
    jacobian(f, (x, y), strategy="sideways")
except (ValueError, RuntimeError, AssertionError) as e:
    print(type(e).__name__, e)

# create_graph=True lets us differentiate the Jacobian
w = torch.tensor([0.5, -1.5], requires_grad=True)
Jw = jacobian(lambda t: t.sin() * t, w, create_graph=True)
print(Jw.requires_grad, Jw.grad_fn is not None)
Jw.trace().backward()
print(w.grad)
Jn = jacobian(lambda t: t.sin() * t, w)
print(Jn.requires_grad)

# Hessian of a two-input function: nested tuple
def g(a, b):
    return (a * b).sum() + (a ** 3).sum()


H = hessian(g, (torch.tensor([1.0, 2.0]), torch.tensor([0.0, 1.0])))
print([[tuple(h.shape) for h in row] for row in H])
print(H[0][0], H[0][1], H[1][1], sep="\n")

# vjp with scalar output: v may be omitted
out, grad = vjp(lambda t: (t ** 2).sum(), torch.tensor([1.0, -2.0, 3.0]))
print(out, grad)
try:
    vjp(lambda t: t ** 2, torch.tensor([1.0, -2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)

# jvp with tuple input
print(jvp(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
          (torch.ones(2), torch.zeros(2))))
print(vhp(lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
print(hvp(lambda t: (t.exp()).sum(), torch.tensor([0.0, 1.0]), torch.tensor([2.0, 0.0])))

# strict=True refuses a function whose output does not depend on the input
try:
    jacobian(lambda t: torch.ones(2), torch.tensor([1.0, 2.0]), strict=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(jacobian(lambda t: torch.ones(2), torch.tensor([1.0, 2.0])))
print(jacobian(lambda t: t[0] * 0 + 3.0, torch.tensor([1.0, 2.0])))
print(hessian(lambda t: t.sum(), torch.tensor([1.0, 2.0])))
