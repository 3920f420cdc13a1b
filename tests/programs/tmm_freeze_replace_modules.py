# timm model utilities: freeze stages by named_modules prefix (requires_grad_(False) + eval BN),
# replace BatchNorm2d modules by name with get_submodule / set_submodule / setattr, collect
# features with forward hooks keyed by module name, and count parameters per top-level child.
import torch
import torch.nn as nn


def conv_bn(cin, cout, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, s, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 4, 2)
        self.stages = nn.Sequential(conv_bn(4, 6, 2), conv_bn(6, 8, 1))
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))

    def forward(self, x):
        return self.head(self.stages(self.stem(x)))


def freeze(model, prefixes):
    for name, m in model.named_modules():
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            for param in m.parameters(recurse=False):
                param.requires_grad_(False)
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.21 + i).reshape(p.shape) * 0.4)

print([n for n, m in net.named_modules() if isinstance(m, nn.BatchNorm2d)])
print([n for n, _ in net.named_children()], len(list(net.modules())))
print({n: sum(p.numel() for p in c.parameters()) for n, c in net.named_children()})
print(net.get_submodule("stages.1.0"))
try:
    net.get_submodule("stages.5")
except AttributeError as e:
    print(type(e).__name__, e)
try:
    net.get_submodule("stages.0.conv")
except AttributeError as e:
    print(type(e).__name__, e)

freeze(net, ["stem", "stages.0"])
net.train()
freeze(net, ["stem", "stages.0"])
print([n for n, p in net.named_parameters() if not p.requires_grad])
print([(n, m.training) for n, m in net.named_modules() if isinstance(m, nn.BatchNorm2d)])

for name, m in list(net.named_modules()):
    if isinstance(m, nn.BatchNorm2d) and name.startswith("stages.1"):
        net.set_submodule(name, nn.GroupNorm(2, m.num_features))
parent = net.get_submodule("stem")
setattr(parent, "1", nn.Identity())
print(net.stem, net.stages[1])

feats = {}
handles = []
for name, m in net.named_modules():
    if name in ("stem", "stages.0", "stages.1"):
        handles.append(m.register_forward_hook(lambda mod, inp, out, name=name: feats.__setitem__(name, out.shape)))
x = torch.sin(torch.arange(2 * 3 * 16 * 16, dtype=torch.float32) * 0.05).reshape(2, 3, 16, 16)
out = net(x)
print(feats)
for h in handles:
    h.remove()
feats.clear()
net(x)
print(feats, out.detach())

opt = torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)
print(len(opt.param_groups[0]["params"]))
stem_w = net.stem[0].weight.clone()
for step in range(4):
    opt.zero_grad()
    loss = net(x).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", net.stem[0].weight.grad is None)
print(torch.equal(stem_w, net.stem[0].weight), net.stages[0][1].running_mean)
print(net.stages[0][1].num_batches_tracked, net.stages[1][1])
print(sorted(k for k in net.state_dict() if k.startswith("stages.1")))
