# Printing and walking a nested model: Sequential with an OrderedDict, ModuleList/ModuleDict,
# repeated blocks (the "(0-2): 3 x" repr), extra_repr, Identity, Flatten, get_submodule, add_module.
from collections import OrderedDict

import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return x * self.factor

    def extra_repr(self):
        return f"factor={self.factor}"


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.act = nn.ReLU()
        self.skip = nn.Identity()

    def forward(self, x):
        return self.act(self.fc(x)) + self.skip(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(OrderedDict([
            ("conv", nn.Conv2d(1, 2, 3, padding=1)),
            ("relu", nn.ReLU(inplace=True)),
            ("pool", nn.MaxPool2d(2)),
            ("flat", nn.Flatten()),
        ]))
        self.blocks = nn.ModuleList([Block(8) for _ in range(3)])
        self.heads = nn.ModuleDict({"logits": nn.Linear(8, 3), "score": nn.Sequential(nn.Linear(8, 1), Scale(0.5))})
        self.dropouts = nn.ModuleList([nn.Dropout(0.1), nn.Dropout(0.2)])

    def forward(self, x):
        x = self.features(x)
        for block in self.blocks:
            x = block(x)
        return {name: head(x) for name, head in self.heads.items()}


net = Net()
print(net)
print(net.features.conv, net.features[0] is net.features.conv, net.features[-1])
print(len(net.blocks), len(net.heads), list(net.heads), list(net.heads.keys()))
print([name for name, _ in net.named_children()])
print([name for name, _ in net.named_modules()])
print(len(list(net.modules())), len(list(net.children())))
print([name for name, _ in net.blocks.named_parameters()])
print([name for name, _ in net.named_parameters(prefix="model")][:4])
print(net.get_submodule("blocks.1.fc"), net.get_submodule("heads.score.1"))
print(type(net.get_parameter("heads.logits.bias")).__name__, net.get_parameter("heads.logits.bias").shape)
try:
    net.get_submodule("blocks.7")
except (AttributeError, IndexError) as e:
    print(type(e).__name__, e)

with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view(p.shape) * 0.4)
out = net(torch.cos(torch.arange(2 * 16, dtype=torch.float32)).view(2, 1, 4, 4))
print(out["logits"], out["score"])

# building containers up
layers = nn.ModuleList()
layers.append(nn.Linear(2, 4))
layers.extend([nn.Tanh(), nn.Linear(4, 4)])
layers.insert(1, nn.ReLU())
print(layers, layers[1:3])
seq = nn.Sequential(*layers)
seq.add_module("out", nn.Linear(4, 1))
print(seq, seq[1:3], len(seq))
del seq[1]
print([type(m).__name__ for m in seq])
d = nn.ModuleDict()
d["b"] = nn.ReLU()
d.update({"a": nn.Identity()})
d.update([("c", nn.Sigmoid())])
print(d, list(d.items())[0][0], d.pop("b"), list(d.keys()))
print(nn.Sequential(), nn.ModuleList(), nn.Sequential(nn.Identity())(torch.tensor([1.5])))
same = nn.Sequential(*[nn.Linear(2, 2) for _ in range(4)], nn.ReLU(), nn.ReLU())
print(same)
print(nn.Flatten(0), nn.Flatten(start_dim=2, end_dim=3), nn.Flatten(0, -1)(torch.ones(2, 3)).shape)
print(nn.Flatten(1, 2)(torch.ones(2, 3, 4, 5)).shape, nn.Identity(54, unused="x"))
print(list(net.state_dict().keys())[:6], len(net.state_dict()))
