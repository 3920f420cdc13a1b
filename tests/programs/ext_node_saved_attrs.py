# Looking inside autograd nodes, as in the "autograd mechanics" notes: saved tensors exposed as
# grad_fn._saved_* attributes, hooks on custom Function nodes, Node isinstance checks, and the
# errors after the graph is freed.
import torch
from torch.autograd import Function

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp()
print(b.grad_fn._saved_result.equal(b), b.grad_fn._saved_result is b)
c = a.pow(2)
print(c.grad_fn._saved_self is a, c.grad_fn._saved_exponent)
d = torch.mul(a, 3.0)
print(type(d.grad_fn).__name__)
print(isinstance(b.grad_fn, torch.autograd.graph.Node))
print(isinstance(a.grad_fn, torch.autograd.graph.Node))

b.sum().backward()
try:
    b.grad_fn._saved_result
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])


class Scale(Function):
    @staticmethod
    def forward(ctx, x, s):
        ctx.s = s
        ctx.save_for_backward(x)
        return x * s

    @staticmethod
    def backward(ctx, g):
        return g * ctx.s, None


y = Scale.apply(a, 4.0)
node = y.grad_fn
print(type(node).__name__, node.name())
print(isinstance(node, torch.autograd.graph.Node), isinstance(node, torch.autograd.function.BackwardCFunction))
print("ctx attribute on node:", node.s)
print("next:", [(type(f).__name__, i) for f, i in node.next_functions])
print("saved on node:", node.saved_tensors[0].tolist())

events = []
node.register_prehook(lambda grads: events.append(("pre", grads[0].tolist())))
node.register_hook(lambda gi, go: events.append(("post", [None if g is None else g.tolist() for g in gi])))
a.grad = None
y.sum().backward()
print(events)
print(a.grad)

try:
    node.saved_tensors
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])

# a hook on the node that replaces the grad_inputs
z = Scale.apply(a, 2.0)
z.grad_fn.register_hook(lambda gi, go: (gi[0] * 0 + 1,))
a.grad = None
z.sum().backward()
print("replaced:", a.grad)

# tensor hooks on the output see the incoming gradient before the custom backward
w = Scale.apply(a, 5.0)
w.register_hook(lambda g: print("output hook", g.tolist()) or g * 10)
a.grad = None
w.sum().backward()
print(a.grad)
