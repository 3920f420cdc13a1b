# Saved-tensor hooks as the "Hooks for saved tensors" tutorial uses them: save_on_cpu,
# nesting (innermost wins), disable_saved_tensors_hooks, hooks that return non-tensors,
# and packing that only sees tensors the op really saves.
import torch
from torch.autograd.graph import saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 1.0, -2.0], requires_grad=True)
with save_on_cpu(pin_memory=False):
    y = (x * w).tanh().sum()
y.backward()
print(x.grad, w.grad)

# a pack hook may return anything; unpack must give the tensor back
store = {}


def pack_to_store(t):
    key = len(store)
    store[key] = t.detach().clone()
    return key


def unpack_from_store(key):
    return store[key]


x.grad = None
with saved_tensors_hooks(pack_to_store, unpack_from_store):
    y = x.pow(3).sum()
print(sorted(store), [v.tolist() for v in store.values()])
y.backward()
print(x.grad)

# nested contexts: the innermost hooks are used
names = []


def tagged(name):
    def pack(t):
        names.append(name)
        return t
    return pack


with saved_tensors_hooks(tagged("outer"), lambda t: t):
    a = x.exp()
    with saved_tensors_hooks(tagged("inner"), lambda t: t):
        b = a.log()
    c = b * b
print(names)
c.sum().backward()
print(x.grad)

# ops that save nothing never call pack
names.clear()
with saved_tensors_hooks(tagged("add"), lambda t: t):
    s = x + 1
    n = -x
    r = x.relu()
print(names, s.grad_fn.name(), n.grad_fn.name(), r.grad_fn.name())

# disabling hooks raises when something tries to register them
try:
    with disable_saved_tensors_hooks("no hooks in this region, please"):
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
except RuntimeError as e:
    print("RuntimeError:", e)

# pack hooks are not used for tensors that do not require grad
names.clear()
with saved_tensors_hooks(tagged("nograd"), lambda t: t):
    z = torch.ones(2) * torch.tensor([2.0, 3.0])
    with torch.no_grad():
        z2 = x * x
print(names, z.requires_grad, z2.requires_grad)

# an unpack hook that changes the value changes the gradient
x.grad = None
with saved_tensors_hooks(lambda t: t, lambda t: t * 0 + 1):
    q = (x * x).sum()
q.backward()
print(x.grad)

# the unpack hook runs every time the saved tensor is read
count = []
with saved_tensors_hooks(lambda t: t, lambda t: count.append(1) or t):
    e = x.sin()
e.sum().backward(retain_graph=True)
e.sum().backward()
print(len(count))

# what common ops hand to the pack hook (shapes only), as the tutorial's memory accounting does
shapes = []
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
k = torch.tensor([[0.5, -1.0], [2.0, 1.0]], requires_grad=True)
for label, fn in [("matmul", lambda: m @ k), ("scale by 2", lambda: m * 2), ("divide", lambda: m / k),
                  ("sigmoid", lambda: m.sigmoid()), ("sum", lambda: m.sum()),
                  ("max", lambda: m.max()), ("index", lambda: m[0])]:
    shapes.clear()
    with saved_tensors_hooks(lambda t: shapes.append(tuple(t.shape)) or t, lambda t: t):
        fn()
    print(label, shapes)
