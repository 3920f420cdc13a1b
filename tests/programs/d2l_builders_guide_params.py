# d2l.ai 6.1-6.5: layers and modules, parameter management, init, custom layers (no d2l package).
import torch
from torch import nn
from torch.nn import functional as F

net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
X = torch.linspace(-1, 1, 8).reshape(2, 4)
print(net[0].weight)
try:
    print(net[0].weight.shape)
except Exception as e:
    print(type(e).__name__, e)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


def init_constant(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 1)
        nn.init.zeros_(module.bias)


print(net.apply(init_constant) is net)
print(net[0].weight.data[0], net[0].bias.data[0])
print(net[2].state_dict())
print(type(net[2].bias).__name__, net[2].bias)
print(net[2].bias.data)
print(net[2].weight.grad == None)
print([(name, param.shape) for name, param in net.named_parameters()])
print(net.state_dict()['2.bias'].data, list(net.state_dict().keys()))


def init_xavier(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 0.5)


def init_42(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 42)


net[0].apply(init_xavier)
net[2].apply(init_42)
print(net[0].weight.data[0])
print(net[2].weight.data)
net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])


# custom initialization: keep only |w| >= 5
def my_init(module):
    if type(module) == nn.Linear:
        print("Init", *[(name, param.shape) for name, param in module.named_parameters()][0])
        with torch.no_grad():
            module.weight.copy_(torch.linspace(-10, 10, module.weight.numel()).reshape(module.weight.shape))
        module.weight.data *= module.weight.data.abs() >= 5


net.apply(my_init)
print(net[0].weight[:2])

# tied parameters
shared = nn.Linear(8, 8)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1))
net.apply(init_constant)
print(net(X))
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
print(len(list(net.parameters())), len(net.state_dict()))
net(X).sum().backward()
print(net[2].weight.grad[0], net[2].weight.grad is net[4].weight.grad)


class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return X - X.mean()


layer = CenteredLayer()
print(layer(torch.tensor([1.0, 2, 3, 4, 5])))
net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())
Y = net(torch.linspace(0, 1, 32).reshape(4, 8))
print(Y.mean().abs() < 1e-6, Y.shape)


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.arange(in_units * units, dtype=torch.float32).reshape(in_units, units) / 10)
        self.bias = nn.Parameter(torch.ones(units,))

    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


linear = MyLinear(5, 3)
print(linear.weight)
print(linear(torch.linspace(-1, 1, 10).reshape(2, 5)))
net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
print(net(torch.ones(2, 64) * 0.01))
print(net)
print(dict(linear.named_parameters()).keys(), linear.state_dict()['bias'])
try:
    nn.Parameter(torch.arange(3))  # a custom layer with an integer "weight"
except RuntimeError as e:
    print(type(e).__name__, e)
print(nn.Parameter(torch.arange(3), requires_grad=False))
