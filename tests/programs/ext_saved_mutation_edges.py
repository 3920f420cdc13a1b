# Advanced autograd.graph utilities from the PyTorch docs: allow_mutation_on_saved_tensors,
# get_gradient_edge with autograd.grad, pack hooks that must not mutate, increment_version on
# lists, and a Function written with vjp instead of backward.
import torch
from torch.autograd.graph import (allow_mutation_on_saved_tensors, get_gradient_edge,
                                  increment_version, saved_tensors_hooks)


def report(fn):
    try:
        out = fn()
        print("ok", out)
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split("\n")[0])


# 1. mutate a saved tensor without "modified by an inplace operation" errors
with allow_mutation_on_saved_tensors() as ctx:
    a = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    head = b[:2]
    out2 = (head * head).sum()
    b.mul_(2)
    out.backward()
    print("grad 1:", a.grad)
    out2.backward()
    print("grad 2:", a.grad)
print(type(ctx).__name__)

# the same mutation without the context manager fails
a = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
b = a.clone()
out = (b ** 2).sum()
b.mul_(2)
report(lambda: out.backward())

# 2. gradient edges: differentiate with respect to an intermediate that is later overwritten
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
edge = get_gradient_edge(h)
print(type(edge).__name__, edge.node.name(), edge.output_nr)
y = (h.exp() / 10).sum()
g_edge, g_x = torch.autograd.grad(y, (edge, x))
print("dy/dh", g_edge)
print("dy/dx", g_x)
leaf_edge = get_gradient_edge(x)
print(leaf_edge.node.name(), leaf_edge.node.variable is x)
report(lambda: get_gradient_edge(torch.ones(2)))

# 3. pack hooks are not allowed to modify what they pack
def scaling_pack(t):
    t.mul_(0.5)
    return t


def do_bad_pack():
    with saved_tensors_hooks(scaling_pack, lambda t: t):
        return (x * 1).exp()


report(do_bad_pack)

# 4. increment_version accepts one tensor or a list
t1, t2 = torch.zeros(2), torch.zeros(3)
increment_version([t1, t2])
increment_version(t1)
print(t1._version, t2._version)
report(lambda: increment_version(3))


# 5. vjp is an alias of backward
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def vjp(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


z = torch.tensor([1.0, -2.0], requires_grad=True)
Cube.apply(z).sum().backward()
print("vjp grad:", z.grad)


class Both(Cube):
    @staticmethod
    def backward(ctx, g):
        return g


report(lambda: Both.apply(z).sum().backward())
