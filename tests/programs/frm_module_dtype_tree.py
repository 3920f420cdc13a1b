# Casting modules: Module.to(dtype), .double()/.half()/.float(), integer buffers kept,
# to(tensor), printed module trees with extra_repr overrides and nested containers.
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self, dim, temperature=1.0):
        super().__init__()
        self.dim = dim
        self.temperature = temperature
        self.logit = nn.Parameter(torch.zeros(dim))
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))
        self.register_buffer("mask", torch.ones(dim, dtype=torch.bool))

    def extra_repr(self):
        return f"dim={self.dim},\ntemperature={self.temperature}"

    def forward(self, x):
        self.calls += 1
        return x * torch.sigmoid(self.logit / self.temperature) * self.mask


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), Gate(4, 0.5))
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 2), "reg": nn.Sequential()})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, dtype=torch.float64))])
        self.extras = nn.ParameterDict({"alpha": nn.Parameter(torch.tensor(0.5))})
        self.empty = nn.ModuleList()


m = Model()
print(m)
print(m.scales)
print(m.extras)


def dtypes(mod):
    return sorted({(n.split(".")[-1], str(t.dtype)) for n, t in list(mod.named_parameters()) + list(mod.named_buffers())})


print(dtypes(m))
m.to(torch.float64)
print(dtypes(m))
m.half()
print(dtypes(m))
m.float()
print(dtypes(m))
m.to(torch.zeros(1, dtype=torch.float64))
print(m.stem[0].weight.dtype, m.stem[1].num_batches_tracked.dtype, m.stem[2].mask.dtype)
m.to("cpu", torch.float32)
print(m.stem[0].weight.dtype, type(m.stem[0].weight).__name__, m.stem[0].weight.requires_grad)
try:
    m.to(torch.int32)
except TypeError as e:
    print(type(e).__name__, e)
m.double()
print(m.extras.alpha.dtype, m.extras.alpha)
m.type(torch.float32)
print(m.extras.alpha.dtype)
x = torch.ones(2, 3)
m.stem.eval()
print(m.stem(x).dtype, m.stem[2].calls)
print(repr(m.stem[2]))
print(nn.Sequential(Gate(2), nn.Identity(5, k=3)))
print(nn.Linear(2, 2).extra_repr(), "|", nn.ReLU().extra_repr(), "|", nn.Sequential().extra_repr())
