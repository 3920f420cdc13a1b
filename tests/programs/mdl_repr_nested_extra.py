# Module reprs users look at when debugging architectures: nested custom modules with extra_repr
# (single and multi-line), ModuleDict / ModuleList / ParameterList / ParameterDict, repeated
# identical blocks, empty containers, and repr after pruning / parametrizing.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
import torch.nn.utils.parametrize as P


class ScaledResidual(nn.Module):
    def __init__(self, dim, scale=0.5, name="res"):
        super().__init__()
        self.dim, self.scale, self.tag = dim, scale, name
        self.inner = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(approximate="tanh"),
                                   nn.Linear(dim * 2, dim))

    def extra_repr(self):
        return f"dim={self.dim}, scale={self.scale}, tag={self.tag!r}"

    def forward(self, x):
        return x + self.scale * self.inner(x)


class MultiLine(nn.Module):
    def extra_repr(self):
        return "first line\nsecond line"


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = nn.Parameter(torch.zeros(1))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([ScaledResidual(4, name=f"b{i}") for i in range(3)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 2), "reg": nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())})
        self.note = MultiLine()
        self.gate = Gate()
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, 1, dtype=torch.float64))])
        self.table = nn.ParameterDict({"a": nn.Parameter(torch.ones(1)), "b": nn.Parameter(torch.ones(2, 2), requires_grad=False)})
        self.empty = nn.ModuleList()
        self.stack = nn.Sequential(*[nn.Linear(4, 4) for _ in range(4)], nn.ReLU())


model = Model()
print(model)
print(model.blocks[1])
print(model.note, repr(model.gate), model.empty, nn.Sequential())
print(model.scales)
print(model.table)
print(nn.ModuleDict())

prune.l1_unstructured(model.heads["cls"], "weight", amount=2)
print(model.heads)


class Positive(nn.Module):
    def forward(self, X):
        return X.abs()


P.register_parametrization(model.stack[0], "weight", Positive())
print(model.stack)
P.register_parametrization(model.stack[0], "bias", Positive())
print(model.stack[0])
print(str(model.blocks[0].inner[2]), model.blocks[0].extra_repr())
print(nn.Linear(2, 3, bias=False).extra_repr(), "|", nn.Conv2d(1, 2, 3, stride=2, padding="same" if False else 1, dilation=2, groups=1, bias=False, padding_mode="reflect").extra_repr())
