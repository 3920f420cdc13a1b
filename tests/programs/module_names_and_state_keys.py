# What nn.Module reports about itself: named_parameters / named_buffers / state_dict keys of a
# nested model with BatchNorm, persistent and non-persistent buffers, prefixes, recurse=False,
# keep_vars, get_submodule / get_parameter, and deleting / replacing submodules.
from collections import OrderedDict

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.fc = nn.Linear(c, c)
        self.bn = nn.BatchNorm1d(c)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(c), persistent=False)

    def forward(self, x):
        return self.bn(self.fc(x)) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(2, 3)
        self.blocks = nn.Sequential(OrderedDict([("first", Block(3)), ("second", Block(3))]))
        self.head = nn.Linear(3, 1, bias=False)
        self.temperature = nn.Parameter(torch.ones(()))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x))) / self.temperature


net = Net()
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
for name, b in net.named_buffers():
    print(name, tuple(b.shape), b.dtype)
sd = net.state_dict()
print(type(sd).__name__, len(sd))
print(list(sd.keys()))
print("blocks.first.cache" in sd, sd["blocks.first.bn.num_batches_tracked"])
print([n for n, _ in net.named_parameters(recurse=False)], [n for n, _ in net.named_buffers(recurse=False)])
print([n for n, _ in net.blocks.first.named_parameters(prefix="b1")])
print([n for n, _ in net.named_children()])
print(list(net.blocks.first.state_dict(prefix="x.").keys())[:3])

# state_dict holds detached tensors that share memory; keep_vars keeps the Parameters
print(sd["stem.weight"].requires_grad, type(sd["stem.weight"]).__name__)
kv = net.state_dict(keep_vars=True)
print(kv["stem.weight"].requires_grad, type(kv["stem.weight"]).__name__, kv["stem.weight"] is net.stem.weight)
with torch.no_grad():
    net.stem.bias.fill_(0.25)
print(sd["stem.bias"])

# Lookups by dotted name
print(net.get_submodule("blocks.second.bn"))
print(net.get_parameter("blocks.first.fc.bias").shape, net.get_buffer("blocks.second.scale"))
try:
    net.get_submodule("blocks.third")
except AttributeError as e:
    print("AttributeError:", e)

# A forward pass in train mode updates running statistics and the counter
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 0.5], [-2.0, 1.0]])
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (i % 3 + 1) * 0.3)
    net.temperature.fill_(1.0)
    out = net(x)
print(out.squeeze())
print(net.blocks.first.bn.running_mean, net.blocks.first.bn.num_batches_tracked)

# Replacing and deleting submodules changes the keys
net.head = nn.Identity()
print([k for k in net.state_dict() if k.startswith("head")], len(net.state_dict()))
del net.blocks.second
print(list(net.blocks._modules.keys()), len(list(net.parameters())))
net.register_buffer("mask", None)
print("mask" in net.state_dict(), net.mask)
net.add_module("extra", nn.Linear(1, 1))
print([n for n, _ in net.named_modules()])

# Loading with missing and unexpected keys
target = Net()
result = target.load_state_dict(net.state_dict(), strict=False)
print(sorted(result.missing_keys))
print(sorted(result.unexpected_keys))
