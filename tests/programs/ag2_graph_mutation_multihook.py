# torch.autograd.graph helpers from the autograd docs:
# register_multi_grad_hook with mode="all" and mode="any", Node isinstance checks,
# increment_version, and the version-counter error text users hit after in-place updates.
import torch
from torch.autograd.graph import Node, register_multi_grad_hook

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

# the classic error: a saved tensor was modified in place
b = a * 1
c = b.sigmoid()           # saves its output
c.mul_(2)
try:
    c.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# increment_version makes the engine think a saved tensor changed
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = x.pow(2)
with torch.no_grad():
    v0 = x._version
    torch.autograd.graph.increment_version(x)
print(x._version - v0)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(";")[0])

# multi-grad hooks
log = []
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0], requires_grad=True)
r = torch.tensor([4.0], requires_grad=True)
h_all = register_multi_grad_hook((p, q, r), lambda gs: log.append(("all", [g is not None for g in gs])))
h_any = register_multi_grad_hook((p, q, r), lambda g: log.append(("any", g.tolist())), mode="any")
(p.sum() * q).sum().backward()
print(log)
log.clear()
(r * 2).sum().backward()
print(log)
h_all.remove()
h_any.remove()
log.clear()
(p.sum() * q * r).sum().backward()
print(log, p.grad, q.grad, r.grad)
try:
    register_multi_grad_hook((p, q), lambda gs: None, mode="some")
except (ValueError, AssertionError) as e:
    print(type(e).__name__ + ":", e)

# Node: every grad_fn is one, AccumulateGrad included
z = (p * 2).sum()
print(isinstance(z.grad_fn, Node), isinstance(p.grad_fn, Node), p.grad_fn)
acc = z.grad_fn.next_functions[0][0].next_functions[0][0]
print(type(acc).__name__, isinstance(acc, Node), acc.variable is p)
print(issubclass(type(z.grad_fn), Node), Node.__name__)

# in-place on a leaf view inside no_grad then backward through an older graph
w = torch.tensor([1.0, 2.0], requires_grad=True)
out = (w * w).sum()
with torch.no_grad():
    w[0] = 10.0
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(";")[0])
print(w._version)
