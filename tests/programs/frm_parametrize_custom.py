# torch.nn.utils.parametrize as in framework code: a Symmetric parametrization with
# right_inverse, stacking two parametrizations, cached(), orthogonal(), state_dict keys,
# the printed module tree and remove_parametrizations.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.register_buffer("s", torch.tensor(s))

    def forward(self, X):
        return X * self.s

    def right_inverse(self, X):
        return X / self.s

    def extra_repr(self):
        return f"s={self.s.item()}"


lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.).view(3, 3))
    lin.bias.fill_(0.1)
P.register_parametrization(lin, "weight", Symmetric())
print(lin)
print(lin.weight)
print(P.is_parametrized(lin), P.is_parametrized(lin, "weight"), P.is_parametrized(lin, "bias"))
print(lin.parametrizations.weight.original)
P.register_parametrization(lin, "weight", Scale(2.0))
print(lin.parametrizations.weight)
print(lin.weight)
print(list(lin.state_dict().keys()))
print([n for n, _ in lin.named_parameters()])
print(type(lin).__name__, type(lin).__mro__[1].__name__)

with torch.no_grad():
    lin.weight = torch.eye(3) * 4
print(lin.parametrizations.weight.original)
print(lin.weight)

x = torch.ones(1, 3)
with P.cached():
    y = lin(x) + lin(x)
y.sum().backward()
print(lin.parametrizations.weight.original.grad)

P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(lin, type(lin).__name__, type(lin.weight).__name__)
print(lin.weight)
try:
    P.remove_parametrizations(lin, "weight")
except ValueError as e:
    print(type(e).__name__, e)

q = nn.Linear(4, 4)
orthogonal(q)
print(q.parametrizations.weight)
W = q.weight
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-5))
print(list(q.state_dict().keys()))


class Bad(nn.Module):
    def forward(self, X):
        return X[:1]


try:
    P.register_parametrization(nn.Linear(2, 2), "weight", Bad())
except ValueError as e:
    print(type(e).__name__, str(e)[:120])
