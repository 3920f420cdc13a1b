# torch.autograd.functional beyond the basics: create_graph=True to differentiate a Jacobian,
# strict=True errors for outputs independent of the inputs, vectorize=False,
# outer_jacobian_strategy, tuple inputs/outputs, and what vjp/jvp/hvp/vhp return.
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]), x.sum()])


x = torch.tensor([1.0, 2.0], requires_grad=True)
J = jacobian(f, x)
print(J, J.requires_grad)
J = jacobian(f, x, create_graph=True)
print(J.requires_grad, J.grad_fn is not None)
J.sum().backward()
print(x.grad)

# the Jacobian of a function with two inputs and two outputs is a tuple of tuples
def two(a, b):
    return a * b, a.exp().sum()

a = torch.tensor([0.0, 1.0])
b = torch.tensor([2.0, 3.0])
jt = jacobian(two, (a, b))
print(type(jt).__name__, len(jt), type(jt[0]).__name__, [tuple(t.shape) for t in jt[1]])
print(jt[0][0], jt[0][1], jt[1][0], jt[1][1], sep="\n")
print(jacobian(two, (a, b), vectorize=False)[0][1])

# strict=True: an output that does not depend on the input is an error
def const_out(x):
    return torch.ones(2) * 3.0

print(jacobian(const_out, torch.tensor([1.0, 2.0])))
for fn in (jacobian, hessian):
    try:
        fn(lambda t: t.detach().sum(), torch.tensor([1.0, 2.0]), strict=True)
    except RuntimeError as e:
        print(fn.__name__, "RuntimeError:", e)
try:
    vjp(lambda t: t.detach() * 2, torch.tensor([1.0]), torch.ones(1), strict=True)
except RuntimeError as e:
    print("vjp RuntimeError:", e)

# hessian of a function of two tensors, with both outer strategies
def energy(p, q):
    return (p ** 2 * q).sum() + (q ** 3).sum()

p = torch.tensor([1.0, 2.0])
q = torch.tensor([0.5, -1.0])
H = hessian(energy, (p, q))
print(H[0][0], H[0][1], H[1][1], sep="\n")
H2 = hessian(energy, (p, q), vectorize=True)
print(all(torch.allclose(H[i][j], H2[i][j]) for i in range(2) for j in range(2)))
# a typo in the strategy name
try:
    jacobian(f, x, strategy="backward")
except AssertionError as e:
    print("AssertionError:", e)

# vjp/jvp/hvp/vhp return (function value, product)
def cube_sum(t):
    return (t ** 3).sum()

t = torch.tensor([1.0, -2.0, 0.5])
v = torch.tensor([1.0, 0.0, 2.0])
val, prod = vjp(lambda z: z ** 2, t, v)
print(val, prod)
val, prod = jvp(lambda z: z ** 2, t, v)
print(val, prod)
val, prod = hvp(cube_sum, t, v)
print(val, prod)
val, prod = vhp(cube_sum, t, v)
print(val, prod, val.requires_grad, prod.requires_grad)
val, prod = vhp(cube_sum, t, v, create_graph=True)
print(prod.requires_grad)
try:
    vjp(lambda z: z ** 2, t, torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    hvp(lambda z: z ** 2, t, v)
except RuntimeError as e:
    print("RuntimeError:", e)
