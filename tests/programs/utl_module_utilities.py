# nn.Module plumbing used by trainer code: named_modules / apply(init_fn), non-persistent buffers,
# train()/eval() propagation, deepcopy independence, strict=False reports, registration errors,
# get_submodule / get_parameter, dtype conversion of params and buffers.
import copy
import math

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.drop = nn.Dropout(0.1)
        self.register_buffer("scale", torch.tensor(1.0 / math.sqrt(d)))
        self.register_buffer("cache", torch.zeros(2, d), persistent=False)

    def forward(self, x):
        return self.norm(x + self.drop(self.proj(x)) * self.scale)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4), Block(4)])
        self.head = nn.Linear(4, 2, bias=False)
        self.shared = self.blocks[0].proj

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def init_fn(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.cos(torch.arange(m.weight.numel(), dtype=m.weight.dtype)).view_as(m.weight) * 0.3)
            if m.bias is not None:
                m.bias.fill_(0.01)
        print("init", m)


model = Model()
print(model.apply(init_fn) is model)
print([n for n, _ in model.named_modules()])
print(len(list(model.named_modules(remove_duplicate=False))), len(list(model.modules())))
print([n for n, _ in model.named_parameters()])
print(len(list(model.named_parameters(remove_duplicate=False))))
print([n for n, _ in model.named_buffers()])
print(list(model.state_dict().keys()))
print([n for n, _ in model.named_children()])

print(model.eval() is model, [m.training for m in model.modules()][:4])
model.train()
model.blocks[1].eval()
print({n: m.training for n, m in model.named_modules() if n.startswith("blocks.1")})
model.train()

x = torch.stack([torch.linspace(-1, 1, 3) * (i + 1) for i in range(4)], 1)
model.eval()
out = model(x)
print(out.detach().round(decimals=4))

clone = copy.deepcopy(model)
with torch.no_grad():
    clone.head.weight.add_(1.0)
print(torch.equal(clone.head.weight, model.head.weight), clone.shared is clone.blocks[0].proj)
print(clone.blocks[0].cache.data_ptr() != model.blocks[0].cache.data_ptr())

sd = model.state_dict()
sd.pop("head.weight")
sd["blocks.0.extra"] = torch.zeros(1)
res = clone.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(torch.equal(clone.blocks[0].proj.weight, model.blocks[0].proj.weight))

print(model.get_submodule("blocks.1.norm"), model.get_parameter("blocks.1.norm.bias").shape)
print(model.get_buffer("blocks.0.scale"))
for bad in ["blocks.5", "blocks.0.nothing", "head.weight"]:
    try:
        model.get_submodule(bad)
    except AttributeError as e:
        print(type(e).__name__, e)
try:
    model.get_parameter("blocks.0.scale")
except AttributeError as e:
    print(type(e).__name__, e)

m = nn.Module()
for call in [lambda: m.add_module("a.b", nn.ReLU()), lambda: m.register_buffer("", torch.ones(1)),
             lambda: m.register_parameter("w", torch.ones(1)), lambda: m.add_module("x", 3),
             lambda: m.register_buffer("b", [1, 2])]:
    try:
        call()
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
m.w = nn.Parameter(torch.ones(2))
try:
    m.register_buffer("w", torch.ones(1))
except KeyError as e:
    print(type(e).__name__, e)

d = model.double()
print(d.head.weight.dtype, d.blocks[0].scale.dtype, d.blocks[0].cache.dtype)
model.requires_grad_(False)
model.head.requires_grad_(True)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), sum(p.numel() for p in model.parameters()))
model.zero_grad()
print(model.head.weight.grad)
