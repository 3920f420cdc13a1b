# Editing containers in place the way surgery scripts do: Sequential slicing/insert/pop/
# extend/+, ModuleList insert and repeated-block repr, ModuleDict update/pop, add_module and
# register_module name checks.
import torch
import torch.nn as nn

seq = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
print(seq[1:3])
print(type(seq[-1]).__name__, len(seq[::2]))
seq.insert(2, nn.Dropout(0.1))
print([type(m).__name__ for m in seq], list(seq._modules.keys()))
popped = seq.pop(2)
print(type(popped).__name__, list(seq._modules.keys()))
seq.append(nn.Sigmoid())
seq.extend([nn.Identity(), nn.Identity()])
print(len(seq), list(seq._modules.keys()))
del seq[-2:]
print(len(seq), list(seq._modules.keys()))
seq[0] = nn.Linear(2, 4, bias=False)
print(seq[0])
both = seq + nn.Sequential(nn.Tanh())
print(type(both).__name__, len(both))
print(nn.Sequential(nn.ReLU()) * 3)
try:
    seq[10]
except IndexError as e:
    print(type(e).__name__, e)

blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(4)])
blocks.append(nn.LayerNorm(3))
print(blocks)
blocks.insert(4, nn.GELU())
print([type(b).__name__ for b in blocks])
blocks.insert(0, nn.Tanh())
print(list(blocks._modules.keys()), type(blocks[0]).__name__)
print(blocks[1:3])
blocks += [nn.ReLU()]
print(len(blocks))
print(blocks.pop(0).__class__.__name__, len(blocks))
try:
    blocks.extend(nn.Linear(1, 1))
except TypeError as e:
    print(type(e).__name__, e)

heads = nn.ModuleDict({"b": nn.Linear(1, 1), "a": nn.ReLU()})
heads.update([("c", nn.Tanh()), ("a", nn.GELU())])
print(list(heads.keys()), heads)
print(type(heads.pop("b")).__name__, list(heads), "a" in heads, len(heads))
heads["z"] = nn.Identity()
print([k for k, _ in heads.items()])
try:
    heads.update(nn.Linear(1, 1))
except TypeError as e:
    print(type(e).__name__, e)

m = nn.Module()
for name in ["a.b", "", "x"]:
    try:
        m.add_module(name, nn.ReLU())
        print("ok", name)
    except KeyError as e:
        print(type(e).__name__, e)
m.register_module("y", None)
print(list(m._modules.items()))
try:
    m.add_module("z", torch.zeros(1))
except TypeError as e:
    print(type(e).__name__, e)
m.w = nn.Parameter(torch.zeros(1))
try:
    m.add_module("w", nn.ReLU())
except KeyError as e:
    print(type(e).__name__, e)
try:
    m.w = torch.ones(1)
except TypeError as e:
    print(type(e).__name__, e)
try:
    m.x = torch.ones(1)
except TypeError as e:
    print(type(e).__name__, e)
m.x = None
print(m)

try:
    seq + nn.ReLU()
except ValueError as e:
    print(type(e).__name__, e)
try:
    blocks[0] = "not a module"
except TypeError as e:
    print(type(e).__name__, e)
del blocks[0]
print(type(blocks._modules).__name__, list(blocks._modules))

scales = nn.ParameterDict({"a": torch.ones(1), "b": torch.ones(2)})
print(scales.setdefault("c", torch.zeros(3)).shape, list(reversed(scales)))
print(scales.popitem()[0], list(scales), list(scales | {"z": torch.ones(1)}))
scales |= {"y": torch.ones(1)}
print(scales)
try:
    scales(torch.ones(1))
except RuntimeError as e:
    print(type(e).__name__, e)
