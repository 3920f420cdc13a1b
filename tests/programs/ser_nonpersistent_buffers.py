# Buffers that should not go into checkpoints (persistent=False, e.g. cached rotary tables or
# masks), BatchNorm running stats, and what load_state_dict says when checkpoints have them.
import io

import torch
import torch.nn as nn


class Rotary(nn.Module):
    def __init__(self, dim, max_len=6):
        super().__init__()
        inv = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv, persistent=False)
        t = torch.arange(max_len).float()
        self.register_buffer("cos_cached", torch.outer(t, inv).cos(), persistent=False)
        self.register_buffer("step", torch.tensor(0))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.rot = Rotary(4)
        self.lin = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)
        self.register_buffer("mask", torch.tril(torch.ones(3, 3)), persistent=False)
        self.register_buffer("unset", None)


b = Block()
print([n for n, _ in b.named_buffers()])
print(list(b.state_dict().keys()))
print(b.rot._non_persistent_buffers_set == {"inv_freq", "cos_cached"}, sorted(b._non_persistent_buffers_set))
print(b.rot.cos_cached[:2])

sd = b.state_dict()
sd["mask"] = torch.zeros(3, 3)
res = Block().load_state_dict(sd, strict=False)
print(res)
try:
    Block().load_state_dict(sd)
except RuntimeError as e:
    print(e)

b.register_buffer("mask", torch.ones(2, 2), persistent=True)
print("mask" in b.state_dict(), sorted(b._non_persistent_buffers_set))
try:
    b.register_buffer("lin", torch.zeros(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    b.register_buffer("bad.name", torch.zeros(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    b.register_buffer("w", [1, 2])
except TypeError as e:
    print(type(e).__name__, e)

old = {k: v for k, v in Block().state_dict().items() if not k.endswith("num_batches_tracked")}
fresh = Block()
print(fresh.load_state_dict(old, strict=False))

b2 = Block()
b2.train()
x = torch.linspace(-2, 2, 20).view(5, 4)
for _ in range(3):
    b2.bn(x)
print(b2.bn.num_batches_tracked, b2.bn.running_mean)
buf = io.BytesIO()
torch.save(b2.state_dict(), buf)
buf.seek(0)
b3 = Block()
b3.load_state_dict(torch.load(buf, weights_only=True))
print(b3.bn.num_batches_tracked, torch.equal(b3.bn.running_var, b2.bn.running_var))
b3.half()
print(b3.bn.num_batches_tracked.dtype, b3.rot.inv_freq.dtype, b3.rot.step.dtype, b3.mask.dtype)
print({k: v.dtype for k, v in b3.state_dict().items() if "bn" in k})
