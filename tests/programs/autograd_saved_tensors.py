# "Autograd mechanics" / "Hooks for saved tensors": what a node saves for backward, when it is
# freed, how in-place changes to saved tensors are caught, and saved_tensors_hooks.
import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)

# Saved tensors are checked against their version at backward time
y = x.pow(2)
x_detached = x.detach()
with torch.no_grad():
    x.mul_(1.0)            # bumps the version of x: the saved input is stale
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x._version, x_detached._version)

# Outputs of add need not be saved: changing them in place is fine
z = x + 1
z.mul_(2)
z.sum().backward()
print(x.grad)

# Freed after backward, kept with retain_graph
x.grad = None
y = x.exp()
y.sum().backward(retain_graph=True)
y.sum().backward()
print(x.grad)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

# What the doc page prints: the saved input is the input itself, the saved output is not
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self), x is y.grad_fn._saved_self, y.grad_fn._saved_exponent)
y = x.exp()
print(y.equal(y.grad_fn._saved_result), y is y.grad_fn._saved_result)
y.sum().backward()
try:
    y.grad_fn._saved_result
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

# saved_tensors_hooks: every tensor saved for backward passes through pack and unpack
log = []


def pack_hook(t):
    log.append(("pack", tuple(t.shape)))
    return t * 1            # store a copy


def unpack_hook(t):
    log.append(("unpack", tuple(t.shape)))
    return t


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    out = (a * b).sin()
print(log)
out.sum().backward()
print(log)
print(a.grad, b.grad)

# Hooks that make the saved tensor independent of later in-place changes
log.clear()
c = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    d = c * c
with torch.no_grad():
    c.add_(10)              # the graph kept its own copy
d.sum().backward()
print(c.grad)
