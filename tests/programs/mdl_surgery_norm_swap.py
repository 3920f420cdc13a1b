# Model surgery after construction: recursively swap BatchNorm2d -> GroupNorm and ReLU -> SiLU
# via named_children/setattr, replace the classifier with nn.Identity for a feature backbone,
# edit Sequential containers in place (insert/append/pop/del/slicing), and set_submodule.
import torch
import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = block(1, 4)
        self.stages = nn.ModuleList([block(4, 8), block(8, 8)])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = self.stem(x)
        for s in self.stages:
            x = s(x)
        return self.fc(self.pool(x).flatten(1))


def swap(module, counts):
    for name, child in module.named_children():
        if isinstance(child, nn.BatchNorm2d):
            setattr(module, name, nn.GroupNorm(2, child.num_features))
            counts["bn"] += 1
        elif isinstance(child, nn.ReLU):
            setattr(module, name, nn.SiLU(inplace=child.inplace))
            counts["relu"] += 1
        else:
            swap(child, counts)
    return counts


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.3)

print(swap(net, {"bn": 0, "relu": 0}))
print(net.stages[1])
print([k for k in net.state_dict() if "stem" in k])

x = torch.sin(torch.arange(2 * 36, dtype=torch.float32)).reshape(2, 1, 6, 6)
print(net(x))

net.fc = nn.Identity()
feats = net(x)
print(feats.shape, net.fc, "fc.weight" in net.state_dict())

net.set_submodule("stages.0.1", nn.BatchNorm2d(8))
print(type(net.get_submodule("stages.0.1")).__name__, net.stages[0][1].num_features)
try:
    net.set_submodule("stages.5.1", nn.Identity())
except Exception as e:
    print(type(e).__name__, e)
try:
    net.get_submodule("stem.conv")
except AttributeError as e:
    print("AttributeError", e)

seq = net.stem
seq.insert(1, nn.Dropout2d(0.0))
seq.append(nn.MaxPool2d(2))
print(len(seq), [type(m).__name__ for m in seq])
last = seq.pop(-1)
del seq[1]
print(type(last).__name__, len(seq), list(seq._modules.keys()))
head = seq[:2]
print(type(head).__name__, list(head._modules.keys()), head[0] is seq[0])
seq.extend([nn.Identity(), nn.Identity()])
print(seq)
del seq[-2:]
print(list(seq._modules.keys()))
stages = net.stages
stages.insert(0, nn.Identity())
stages[1:2] if hasattr(stages, "__getitem__") else None
print(len(stages), type(stages[-1][0]).__name__, type(stages[1:]).__name__)
net.eval()
print(net(x).shape)
