# Module hook pitfalls from the forums: a module called twice with a full backward hook,
# inplace ReLU under a backward hook, hooks returning the wrong number of gradients,
# always_call forward hooks, global module hooks, and the legacy register_backward_hook.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        print(label, fn())
    except (RuntimeError, ValueError) as e:
        print(label, type(e).__name__ + ":", str(e)[:110])


x = torch.tensor([[1.0, -1.0]], requires_grad=True)
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.zero_()
calls = []
lin.register_full_backward_hook(lambda m, gi, go: calls.append((gi[0].tolist(), go[0].tolist())))
attempt("used twice", lambda: lin(lin(x)).sum().backward())
print(calls)

relu = nn.ReLU(inplace=True)
relu.register_full_backward_hook(lambda m, gi, go: None)
attempt("inplace relu", lambda: relu(x * 1).sum().backward())
safe = nn.ReLU()
safe.register_full_backward_hook(lambda m, gi, go: print("relu grad_input", gi[0]))
safe(x * 1).sum().backward()

lin3 = nn.Linear(2, 1)
lin3.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
attempt("hook count", lambda: lin3(x).sum().backward())
lin4 = nn.Linear(2, 1)
lin4.register_full_backward_pre_hook(lambda m, go: (go[0], go[0]))
attempt("pre-hook count", lambda: lin4(x).sum().backward())

lin5 = nn.Linear(2, 1)
seen = []
lin5.register_forward_hook(lambda m, i, o: seen.append(("always", o)), always_call=True)


def failing_pre_hook(module, inputs):
    raise ValueError("bad input shape")


lin5.register_forward_pre_hook(failing_pre_hook)
attempt("always_call", lambda: lin5(x))
print(seen)

from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

names = []
h1 = register_module_forward_pre_hook(lambda m, i: names.append("pre " + type(m).__name__))
h2 = register_module_forward_hook(lambda m, i, o: names.append(type(m).__name__))
nn.Sequential(nn.Linear(2, 2), nn.ReLU())(x)
h1.remove()
h2.remove()
nn.Linear(2, 2)(x)
print(names)

old = nn.Linear(2, 1)
grads = []
old.register_backward_hook(lambda m, gi, go: grads.append([None if g is None else tuple(g.shape) for g in gi]))
old(x).sum().backward()
print(grads)
attempt("mix old and full", lambda: old.register_full_backward_hook(lambda m, gi, go: None))
