# Fine-tuning surgery on a nested model: get_submodule / get_parameter / get_buffer by dotted
# path, replacing the classifier head (setattr and set_submodule), counting trainable
# parameters, a module with get_extra_state/set_extra_state, and state_dict hooks.
import io

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.lin = nn.Linear(c, c)
        self.bn = nn.BatchNorm1d(c)

    def forward(self, x):
        return torch.relu(self.bn(self.lin(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(Block(3), Block(3))
        self.head = nn.Linear(3, 5)

    def forward(self, x):
        return self.head(self.body(x))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) + 0.01 * i)

print(net.get_submodule("body.1.lin"))
print(net.get_parameter("body.0.lin.bias"))
print(net.get_buffer("body.1.bn.running_var"))
for path in ["body.2", "body.0.conv", "head.weight"]:
    try:
        net.get_submodule(path)
    except AttributeError as e:
        print(type(e).__name__, e)
try:
    net.get_parameter("body.0.bn.running_mean")
except AttributeError as e:
    print(type(e).__name__, e)

for p in net.body.parameters():
    p.requires_grad_(False)
net.head = nn.Linear(3, 2)
print(sum(p.numel() for p in net.parameters() if p.requires_grad), [n for n, p in net.named_parameters() if p.requires_grad])
net.set_submodule("body.1.lin", nn.Linear(3, 3, bias=False))
print(net.body[1])
try:
    net.set_submodule("body.5.lin", nn.Identity())
except AttributeError as e:
    print(type(e).__name__, e)
print([k for k in net.state_dict() if k.startswith("body.1")])


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
        self.config = {"mode": "train", "calls": 0}

    def forward(self, x):
        self.config["calls"] += 1
        return x * self.w

    def get_extra_state(self):
        return dict(self.config)

    def set_extra_state(self, state):
        self.config = state


s = Scaler()
s(torch.ones(2)); s(torch.ones(2))
sd = s.state_dict()
print(list(sd.keys()), sd["_extra_state"])
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
s2 = Scaler()
print(s2.load_state_dict(torch.load(buf, weights_only=False)), s2.config)

log = []
m = nn.Linear(2, 2)
m.register_state_dict_post_hook(lambda mod, sd, prefix, local_md: log.append(("post", prefix, len(sd))))
m.register_load_state_dict_post_hook(lambda mod, keys: log.append(("load_post", keys.missing_keys, keys.unexpected_keys)))
seq = nn.Sequential(m)
sd = seq.state_dict()
seq.load_state_dict(sd)
print(log)
