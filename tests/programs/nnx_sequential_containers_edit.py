# Editing models after construction: Sequential indexing, negative indices, slicing (a new Sequential
# that shares the layers), append/insert/extend/pop/del, OrderedDict names, ModuleDict
# update/pop/items, ParameterList/ParameterDict reprs and appends, and the errors on bad access.
from collections import OrderedDict

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))
print(len(model), model[0], model[-1], type(model[1:3]).__name__)
head = model[:2]
print(head)
print(head[0] is model[0], model[::2])
model.append(nn.Softmax(dim=1))
model.insert(1, nn.BatchNorm1d(8))
print(model)
model.extend([nn.Identity(), nn.Dropout(0.1)])
print(len(model), [type(m).__name__ for m in model])
popped = model.pop(1)
del model[-2:]
print(popped, len(model), list(model._modules.keys()))
model[1] = nn.GELU()
print(model[1], [name for name, _ in model.named_children()])
for bad in [10, -20]:
    try:
        model[bad]
    except IndexError as e:
        print("IndexError", e)

named = nn.Sequential(OrderedDict([("conv", nn.Conv2d(1, 2, 3)), ("act", nn.ReLU()), ("flat", nn.Flatten())]))
print(named, named.conv, named[1], named[-1])
print([n for n, _ in named.named_parameters()])
named.add_module("out", nn.Linear(2, 1))
print(list(named._modules.keys()), named[-1])
print(nn.Sequential(), len(nn.Sequential()))

# ModuleDict editing
heads = nn.ModuleDict({"b": nn.Linear(2, 2), "a": nn.Linear(2, 1)})
heads["c"] = nn.Linear(2, 3)
heads.update({"d": nn.ReLU()})
print(list(heads.keys()), len(heads), "c" in heads)
removed = heads.pop("b")
print(removed, list(heads.keys()))
print([(k, type(v).__name__) for k, v in heads.items()])
print(heads)
try:
    heads["zzz"]
except KeyError as e:
    print("KeyError", e)

# parameter containers
plist = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), nn.Parameter(torch.zeros(4))])
plist.append(nn.Parameter(torch.full((1,), 2.0)))
print(plist)
print(len(plist), [p.shape for p in plist], plist[-1])
pdict = nn.ParameterDict({"scale": nn.Parameter(torch.ones(3)), "shift": nn.Parameter(torch.zeros(3))})
pdict["temp"] = nn.Parameter(torch.tensor(0.5))
print(pdict)
print(list(pdict.keys()), pdict["temp"])


class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 3), nn.ReLU())
        self.extra = pdict

    def forward(self, x):
        return self.body(x) * self.extra["scale"] + self.extra["shift"]


w = Wrapper()
print([n for n, _ in w.named_parameters()])
print(w(torch.zeros(1, 3)).shape, sum(p.numel() for p in w.parameters()))

# combining containers
encoder = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
decoder = nn.Sequential(nn.Linear(3, 2))
autoenc = encoder + decoder
print(autoenc, len(autoenc), autoenc[0] is encoder[0])
encoder += nn.Sequential(nn.Dropout(0.2))
print(len(encoder), encoder[-1])
layers = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Tanh()])
layers.insert(1, nn.Sigmoid())
print(layers.pop(0), [type(m).__name__ for m in layers], layers[::-1])
