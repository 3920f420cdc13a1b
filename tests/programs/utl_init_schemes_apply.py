# Weight-init utilities from a model zoo: an init_weights(m) hook passed to model.apply using
# calculate_gain and fan computations, identity-style inits (dirac_ for convs, eye_ for linears) that
# make a residual net start as the identity, config-driven uniform ranges, and nn.utils.skip_init.
import math

import torch
import torch.nn as nn
from torch.nn import init


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 2, 3, padding=1)
        self.bn = nn.BatchNorm1d(2)
        self.fc = nn.Linear(6, 6)
        self.out = nn.Linear(6, 3)

    def forward(self, x):
        h = torch.relu(self.bn(self.conv(x))) + x
        return self.out(self.fc(h.flatten(1)))


def init_weights(m):
    if isinstance(m, nn.Conv1d):
        init.dirac_(m.weight)
        init.zeros_(m.bias)
        fan_in, fan_out = init._calculate_fan_in_and_fan_out(m.weight)
        print(f"conv fan_in={fan_in} fan_out={fan_out} gain(relu)={init.calculate_gain('relu'):.4f}")
    elif isinstance(m, nn.BatchNorm1d):
        init.ones_(m.weight)
        init.zeros_(m.bias)
    elif isinstance(m, nn.Linear) and m.out_features == m.in_features:
        init.eye_(m.weight)
        init.constant_(m.bias, 0.0)
    elif isinstance(m, nn.Linear):
        bound = 1.0 / math.sqrt(init._calculate_correct_fan(m.weight, "fan_in"))
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-bound, bound, m.weight.numel()).view_as(m.weight))
        init.constant_(m.bias, 0.01)
        print(f"linear {tuple(m.weight.shape)} bound={bound:.4f}")


net = Net()
net.apply(init_weights)
print(net.conv.weight[:, :, 1], net.conv.weight[:, :, 0].abs().sum())
print(torch.equal(net.fc.weight, torch.eye(6)))
net.eval()
x = torch.stack([torch.sin(torch.arange(6.0)).view(2, 3), torch.cos(torch.arange(6.0)).view(2, 3)])
with torch.no_grad():
    h = net.fc((torch.relu(net.bn(net.conv(x))) + x).flatten(1))
print("residual+identity doubles positive inputs:", torch.allclose(h, (torch.relu(x) + x).flatten(1), atol=1e-6))
print(net(x).detach().round(decimals=4))

for name in ["linear", "tanh", "relu", "selu", "sigmoid"]:
    print(name, round(init.calculate_gain(name), 4))
print("leaky", round(init.calculate_gain("leaky_relu", 0.1), 4))
for shape in [(8, 4), (8, 4, 3), (16, 4, 3, 3)]:
    print(shape, init._calculate_fan_in_and_fan_out(torch.empty(shape)))

for bad in [lambda: init.eye_(torch.empty(2, 2, 2)), lambda: init.dirac_(torch.empty(4, 4)),
            lambda: init.calculate_gain("swish"), lambda: init.kaiming_uniform_(torch.empty(3), mode="fan_in"),
            lambda: init._calculate_correct_fan(torch.empty(3, 3), "fan_sum")]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)

cfg = {"emb_init_range": (0.5, -0.5)}  # a config with the bounds swapped
emb = nn.Embedding(4, 2)
try:
    init.uniform_(emb.weight, *cfg["emb_init_range"])
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    init.normal_(emb.weight, mean=0.0, std=-0.02)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)

fast = nn.utils.skip_init(nn.Linear, 4, 2, bias=True)
print(type(fast).__name__, fast.weight.shape, fast.weight.requires_grad)
fast.reset_parameters()
print(fast.weight.abs().max().item() <= 0.5)
