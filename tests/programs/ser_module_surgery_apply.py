# Model surgery before fine-tuning: walk named_modules to swap every ReLU for GELU and wrap
# Linear layers, set_submodule/get_submodule by dotted path, re-initialise with module.apply,
# and the state_dict keys after each change.
import torch
import torch.nn as nn


class Scaled(nn.Module):
    def __init__(self, inner, alpha=0.5):
        super().__init__()
        self.inner = inner
        self.alpha = alpha

    def forward(self, x):
        return self.inner(x) * self.alpha

    def extra_repr(self):
        return f"alpha={self.alpha}"


net = nn.Sequential(
    nn.Linear(3, 4), nn.ReLU(),
    nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Dropout(0.1)),
    nn.ModuleDict({"out": nn.Linear(4, 2), "act": nn.ReLU()}),
)
print([name for name, _ in net.named_modules()])
print([n for n, m in net.named_modules() if isinstance(m, nn.ReLU)])

for name, module in list(net.named_modules()):
    if isinstance(module, nn.ReLU):
        net.set_submodule(name, nn.GELU(approximate="tanh"))
print(net)

for name, module in list(net.named_modules()):
    if isinstance(module, nn.Linear) and name != "3.out":
        parent_name, _, child = name.rpartition(".")
        parent = net.get_submodule(parent_name) if parent_name else net
        setattr(parent, child, Scaled(module))
print(list(net.state_dict().keys()))
print(net.get_submodule("2.0"))
for bad in ["2.5", "3.missing", "0.inner.weight"]:
    try:
        net.get_submodule(bad)
    except AttributeError as e:
        print(type(e).__name__, e)
try:
    net.set_submodule("3.out", "not a module")
except Exception as e:
    print(type(e).__name__, e)


@torch.no_grad()
def init_weights(m):
    if isinstance(m, nn.Linear):
        n = m.weight.numel()
        m.weight.copy_(torch.linspace(-1, 1, n).view_as(m.weight) / m.in_features)
        if m.bias is not None:
            m.bias.fill_(0.01)


visited = []
ret = net.apply(lambda m: visited.append(type(m).__name__))
print(ret is net, visited)
net.apply(init_weights)
x = torch.linspace(-2, 2, 6).view(2, 3)
net.eval()
h = net[:3](x)
print(net[3]["out"](net[3]["act"](h)))
print(sum(p.numel() for p in net.parameters()), len(list(net.modules())), len(list(net.children())))

del net[1]
print(len(net), [type(m).__name__ for m in net])
net.insert(1, nn.Tanh())
net.append(nn.Identity())
print(list(net.state_dict().keys()))
print(net[-2:])
