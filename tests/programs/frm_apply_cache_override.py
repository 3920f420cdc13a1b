# Framework modules that keep tensors outside parameters/buffers (a rotary-embedding cache,
# a metric's running state) override Module._apply so .to()/.double()/.half() convert them too;
# model casting also keeps integer buffers and Parameter identity (optimizers still work).
import torch
import torch.nn as nn


class RotaryCache(nn.Module):
    def __init__(self, dim, max_len=4):
        super().__init__()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_len).float()
        freqs = torch.outer(t, inv_freq)
        self.cos_cached = freqs.cos()
        self.sin_cached = freqs.sin()
        self.conversions = []

    def _apply(self, fn, recurse=True):
        self.conversions.append(type(self).__name__)
        self.cos_cached = fn(self.cos_cached)
        self.sin_cached = fn(self.sin_cached)
        return super()._apply(fn, recurse)

    def forward(self, x):
        n = x.shape[-2]
        return x * self.cos_cached[:n].repeat(1, 2) + x.flip(-1) * self.sin_cached[:n].repeat(1, 2)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.rope = RotaryCache(4)
        self.proj = nn.Linear(4, 4)
        self.norm = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.norm(self.proj(self.rope(x)))


block = Block()
with torch.no_grad():
    block.proj.weight.copy_(torch.arange(16.).view(4, 4) / 16 - 0.5)
    block.proj.bias.fill_(0.1)
opt = torch.optim.SGD(block.parameters(), lr=0.1)
weight_obj = block.proj.weight
x = torch.linspace(-1, 1, 24).view(2, 3, 4)

for cast in ("double", "float", "half", "to64"):
    if cast == "to64":
        block.to(torch.float64)
    else:
        getattr(block, cast)()
    dt = {"double": torch.float64, "float": torch.float32, "half": torch.float16, "to64": torch.float64}[cast]
    print(cast, block.rope.cos_cached.dtype, block.rope.inv_freq.dtype, block.proj.weight.dtype,
          block.norm.num_batches_tracked.dtype, block.proj.weight is weight_obj)
print(block.rope.conversions)

block.double()
block.train()
for step in range(3):
    opt.zero_grad()
    out = block(x.double())
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", block.proj.weight.grad.dtype, int(block.norm.num_batches_tracked))
print(block.proj.weight[0])
block.eval()
print(block(x.double())[0, 0])

m = nn.Linear(2, 2)
m.weight.grad = torch.ones(2, 2)
m.double()
print(m.weight.grad.dtype, type(m.weight).__name__, m.weight.requires_grad)
