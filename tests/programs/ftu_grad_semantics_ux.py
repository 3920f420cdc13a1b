# How torch.func.grad treats the world around the function (the torch.func "UX Limitations" and
# "grad" docs): captured tensors that require grad, outer no_grad ignored / inner no_grad kept,
# detach inside, keyword arguments, Parameters as inputs, hooks, and has_aux with pytrees.
import torch
from torch.func import grad, grad_and_value

w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, -1.0])

# a captured tensor that requires grad: the result is still differentiable w.r.t. it
g = grad(lambda x: (w * x).pow(2).sum())(x)
print(g, g.requires_grad, type(g.grad_fn).__name__)
g.sum().backward()
print("dL/dw through grad:", w.grad)

# grad ignores an outer torch.no_grad ...
with torch.no_grad():
    print("outer no_grad:", grad(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0])))


# ... but respects one inside the function
def f(x):
    with torch.no_grad():
        c = x ** 2
    return (x.sin() - c).sum()


print("inner no_grad:", grad(f)(torch.tensor([0.3, 0.4])).round(decimals=5))
print("detach inside:", grad(lambda x: x.detach().sum() + (2 * x).sum())(torch.tensor([1.0, 2.0])))
print("zero gradient:", grad(lambda x: x.sum() * 0)(torch.tensor([1.0, 2.0])))


# keyword arguments are passed through and never differentiated
def loss(w, x, *, scale=1.0, offset=None):
    out = scale * (w * x).sum()
    if offset is not None:
        out = out + offset.sum()
    return out ** 2


print(grad(loss)(torch.tensor([1.0, 2.0]), x, scale=2.0))
print(grad(loss, argnums=1)(torch.tensor([1.0, 2.0]), x, offset=torch.ones(3)))
gw, value = grad_and_value(loss, argnums=(0, 1))(torch.tensor([1.0, 2.0]), x, scale=0.5)
print(gw, value)

# nn.Parameter inputs: the gradient does not require grad unless something outside needs it
p = torch.nn.Parameter(torch.ones(2))
r = grad(lambda p: (p ** 2).sum())(p)
print(r, r.requires_grad)


# tensor hooks registered inside the function apply to the transform's backward
def hooked(x):
    y = x * 2
    y.register_hook(lambda g: g * 10)
    return y.sum()


print("hooked:", grad(hooked)(torch.ones(2)))

# has_aux with a nested pytree of tensors
g, aux = grad(lambda x: (x.sum(), {"n": 1.5 * x, "parts": [x.max(), x.min()]}), has_aux=True)(torch.tensor([1.0, 4.0]))
print(g, aux)

# subgradients PyTorch picks at kinks
print("abs at 0:", grad(lambda x: x.abs().sum())(torch.tensor([0.0, -0.0, 1.0])))
print("max with ties:", grad(lambda x: torch.max(x))(torch.tensor([1.0, 3.0, 3.0])))
print("norm at 0:", grad(lambda x: x.norm())(torch.zeros(3)))
print("relu at 0:", grad(lambda x: torch.relu(x).sum())(torch.tensor([-1.0, 0.0, 1.0])))

# errors
for name, fn, args in [
    ("non-scalar", lambda x: x * 2, (torch.ones(2),)),
    ("integer input", lambda x: x.sum(), (torch.tensor([1, 2]),)),
    ("python float", lambda x: x.sum(), (3.0,)),
    ("aux not tuple", lambda x: x.sum(), (torch.ones(2),)),
]:
    try:
        if name == "aux not tuple":
            grad(fn, has_aux=True)(*args)
        else:
            grad(fn)(*args)
    except Exception as e:
        print(name, "->", type(e).__name__, e)
try:
    grad(lambda x, y: x.sum(), argnums=(0, 0))(torch.ones(2), torch.ones(2))
except Exception as e:
    print("repeated argnums ->", type(e).__name__, e)
try:
    grad(lambda x: x.sum(), argnums=2)(torch.ones(2))
except Exception as e:
    print("argnum out of range ->", type(e).__name__, e)
