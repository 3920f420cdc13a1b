# torch.autograd.graph.saved_tensors_hooks as used for activation offloading / compression:
# counting packs, packing to float16, save_on_cpu, and a custom Function under the hooks.
import torch
import torch.nn as nn
from torch.autograd.graph import saved_tensors_hooks, save_on_cpu

packed_shapes = []


def pack(t):
    packed_shapes.append(tuple(t.shape))
    return t.to(torch.float16), t.dtype


def unpack(packed):
    t, dtype = packed
    return t.to(dtype)


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (i + 1))

x = torch.linspace(-1, 1, 12).reshape(3, 4)
ref_loss = model(x).pow(2).sum()
ref_loss.backward()
ref_grads = [p.grad.clone() for p in model.parameters()]
model.zero_grad()

with saved_tensors_hooks(pack, unpack):
    loss = model(x).pow(2).sum()
print("packed", len(packed_shapes), "tensors; shapes:", sorted(set(packed_shapes)))
loss.backward()
for (name, p), r in zip(model.named_parameters(), ref_grads):
    print(name, "max diff vs fp32 < 1e-2:", (p.grad - r).abs().max().item() < 1e-2)

# save_on_cpu is a no-op offload on a CPU-only machine but must give identical grads
model.zero_grad()
with save_on_cpu(pin_memory=False):
    loss2 = model(x).pow(2).sum()
loss2.backward()
print("save_on_cpu same grads:", all(torch.equal(p.grad, r) for p, r in zip(model.parameters(), ref_grads)))

# hooks see tensors saved by a custom Function too
calls = []


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return 2 * a * g


def pack_log(t):
    calls.append("pack")
    return t


def unpack_log(t):
    calls.append("unpack")
    return t


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with saved_tensors_hooks(pack_log, unpack_log):
    out = Square.apply(a)
print(calls)
out.sum().backward()
print(calls, a.grad)

# pack hook returning a non-tensor handle (e.g. an id into a storage dict)
storage = {}


def pack_to_store(t):
    key = len(storage)
    storage[key] = t.clone()
    return key


def unpack_from_store(key):
    return storage[key]


b = torch.tensor([0.5, -0.5], requires_grad=True)
with saved_tensors_hooks(pack_to_store, unpack_from_store):
    y = (b.exp() * b).sum()
print("stored", len(storage))
y.backward()
print(b.grad)

# nested hooks: inner one wins
order = []
with saved_tensors_hooks(lambda t: order.append("outer") or t, lambda t: t):
    with saved_tensors_hooks(lambda t: order.append("inner") or t, lambda t: t):
        (b * b).sum()
print(order)
