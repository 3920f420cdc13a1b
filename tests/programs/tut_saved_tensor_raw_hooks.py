# PyTorch's "Hooks for saved tensors" tutorial: a node's raw saved tensors (_raw_saved_self),
# hooks registered on one of them, packing to disk, and the errors the tutorial points out.
import os
import tempfile
import uuid

import torch

x = torch.arange(1.0, 6.0, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self)
print(type(y.grad_fn._raw_saved_self).__name__)
print(y.grad_fn._saved_self is x, torch.equal(y.grad_fn._saved_self, x))


def pack_hook(t):
    print("Packing", t)
    return t


def unpack_hook(t):
    print("Unpacking", t)
    return t


y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)

# saving to disk, as the tutorial's SelfDeletingTempFile does
tmp_dir = tempfile.mkdtemp()


class SelfDeletingTempFile:
    def __init__(self):
        self.name = os.path.join(tmp_dir, str(uuid.uuid4()))

    def __del__(self):
        os.remove(self.name)


def pack_to_disk(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_from_disk(temp_file):
    return torch.load(temp_file.name, weights_only=True)


a = torch.ones(3, requires_grad=True)
b = a.exp()
b.grad_fn._raw_saved_result.register_hooks(pack_to_disk, unpack_from_disk)
(b * torch.arange(3.0)).sum().backward()
print(a.grad)
print(len(os.listdir(tmp_dir)) <= 1)

c = a.pow(2)
c.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
for bad in (lambda: c.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t),):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
c.sum().backward()
try:
    c.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
except RuntimeError as e:
    print("RuntimeError:", e)

d = a.exp()
d.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: 42)
try:
    d.sum().backward()
except TypeError as e:
    print("TypeError:", e)
