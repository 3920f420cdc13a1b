# Custom parametrizations beyond the basics: right_inverse returning a tuple (original0/original1),
# unsafe=True shape-changing parametrizations, chaining two parametrizations on one tensor, and
# assigning to the parametrized attribute (which calls right_inverse).
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class LowRank(nn.Module):
    """W = A @ B, stored as two factors."""
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def forward(self, A, B):
        return A @ B

    def right_inverse(self, W):
        A = W[:, : self.rank].clone()
        B = torch.zeros(self.rank, W.shape[1])
        B[:, : self.rank] = torch.eye(self.rank)
        return A, B


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, X):
        return X / self.s


class Flatten2(nn.Module):
    """Shape-changing: stores the weight as a 1-D vector."""
    def forward(self, X):
        return X.reshape(4, 3)

    def right_inverse(self, W):
        return W.reshape(-1)


lin = nn.Linear(3, 4)
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.0).reshape(4, 3) / 10)
    lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3, -0.4]))

P.register_parametrization(lin, "weight", LowRank(2))
print(sorted(k for k, _ in lin.named_parameters()))
print([(k, tuple(v.shape)) for k, v in lin.state_dict().items()])
print(lin.weight)
print(type(lin.parametrizations.weight).__name__, len(lin.parametrizations.weight))
print(lin.parametrizations.weight.original0.shape, lin.parametrizations.weight.original1.shape)

P.register_parametrization(lin, "weight", Scale(2.0))
print(len(lin.parametrizations.weight), [type(m).__name__ for m in lin.parametrizations.weight])
print(lin.weight)
x = torch.linspace(-1, 1, 6).reshape(2, 3)
out = lin(x)
out.sum().backward()
print(out)
print(lin.parametrizations.weight.original0.grad)
print(lin.parametrizations.weight.original1.grad)

with torch.no_grad():
    lin.weight = torch.ones(4, 3)
print(lin.parametrizations.weight.original0)
print(lin.weight)

P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(P.is_parametrized(lin), lin.weight.shape, type(lin.weight).__name__)

# shape-changing parametrization: must pass unsafe=True
lin2 = nn.Linear(3, 4, bias=False)
with torch.no_grad():
    lin2.weight.copy_(torch.arange(12.0).reshape(4, 3))
try:
    P.register_parametrization(lin2, "weight", nn.Flatten(0))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
P.register_parametrization(lin2, "weight", Flatten2(), unsafe=True)
print(lin2.parametrizations.weight.original.shape, lin2.weight.shape)
print(lin2(torch.ones(1, 3)))
print(P.is_parametrized(lin2, "weight"), P.is_parametrized(lin2, "bias"))
try:
    P.remove_parametrizations(lin2, "bias")
except Exception as e:
    print(type(e).__name__, e)
P.remove_parametrizations(lin2, "weight", leave_parametrized=False)
print(lin2.weight.shape)
