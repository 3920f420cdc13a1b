# Compiled functions that read tensors and modules from outside: closures, globals, attributes of
# a config object, dict/list entries that the user replaces between calls, a nonlocal counter and
# a module captured by a closure whose weights change. Each call must see the current values.
import torch
import torch.nn as nn


def make_scaler(factor):
    offset = torch.tensor([1.0, -1.0])

    @torch.compile
    def scaler(x):
        return x * factor + offset

    return scaler


double, halve = make_scaler(2.0), make_scaler(0.5)
x = torch.tensor([3.0, 4.0])
print(double(x), halve(x))


class Config:
    def __init__(self):
        self.temperature = torch.tensor(1.0)
        self.bias = 0.0


cfg = Config()
hparams = {"w": torch.tensor([1.0, 2.0]), "eps": 1e-3}
history = [torch.tensor(0.0)]


@torch.compile
def scores(x):
    return (x * hparams["w"]).softmax(-1) / cfg.temperature + cfg.bias + history[-1]


print(scores(x))
cfg.temperature = torch.tensor(2.0)          # replace the tensor attribute
print(scores(x))
cfg.bias = 1.0                               # change a Python float attribute
print(scores(x))
hparams["w"] = torch.tensor([0.0, 0.0])      # replace a dict entry
print(scores(x))
history.append(torch.tensor(10.0))           # the list grows
print(scores(x))
cfg.temperature.fill_(4.0)                   # in-place change of the same tensor
print(scores(x))

# a module captured by a closure, weights changed in place and replaced
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 1.0]]))
    lin.bias.zero_()


def make_head(module):
    @torch.compile
    def head(z):
        return torch.sigmoid(module(z))
    return head


head = make_head(lin)
print(head(x))
with torch.no_grad():
    lin.weight.mul_(-1)
print(head(x))
lin.bias = nn.Parameter(torch.tensor([7.0]))
print(head(x))

# a nonlocal call counter next to the compiled work
def make_counter():
    calls = 0

    def step(z):
        nonlocal calls
        calls += 1
        return z.cumsum(0) * calls

    return torch.compile(step), lambda: calls


step, get_calls = make_counter()
for _ in range(3):
    out = step(x)
print(out, get_calls())
