# The "Parametrizations Tutorial", scaled down: register_parametrization with Symmetric and Skew
# modules, layer.parametrizations.weight.original, chaining
# two parametrizations, right_inverse for assignment, the cached() context manager, training
# through a parametrized weight, state_dict keys, and remove_parametrizations.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


class NoiseFreeScale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, A):
        return A / self.s


layer = nn.Linear(3, 3)
with torch.no_grad():
    layer.weight.copy_(torch.arange(9, dtype=torch.float32).view(3, 3) / 10)
    layer.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
parametrize.register_parametrization(layer, "weight", Symmetric())
print(layer)
A = layer.weight
print(A, torch.allclose(A, A.T), A.grad_fn.name())
print(parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"), type(layer).__name__)
print(layer.parametrizations.weight.original)
print(sorted(layer.state_dict().keys()), [n for n, _ in layer.named_parameters()])

x = torch.linspace(-1, 1, 6).view(2, 3)
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = (layer(x) - x.flip(1)).pow(2).mean()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f}")
print(layer.parametrizations.weight.original.grad, torch.allclose(layer.weight, layer.weight.T))

# chaining: scale applied after symmetrisation; assignment goes through right_inverse
sk = nn.Linear(3, 3, bias=False)
parametrize.register_parametrization(sk, "weight", Skew())
print(sk.weight.diagonal(), (sk.weight + sk.weight.T).abs().max())
lin = nn.Linear(2, 2, bias=False)
parametrize.register_parametrization(lin, "weight", Symmetric())
parametrize.register_parametrization(lin, "weight", NoiseFreeScale(2.0))
print(lin.parametrizations.weight)
try:
    with torch.no_grad():
        lin.weight = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
except RuntimeError as e:
    print(type(e).__name__, e)
lin = nn.Linear(2, 2, bias=False)
parametrize.register_parametrization(lin, "weight", NoiseFreeScale(2.0))
with torch.no_grad():
    lin.weight = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
print(lin.weight, lin.parametrizations.weight.original)
with parametrize.cached():
    w1, w2 = lin.weight, lin.weight
    print(w1 is w2)
print(lin.weight is lin.weight)

parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(layer, type(layer.weight).__name__, layer.weight.requires_grad, parametrize.is_parametrized(layer))
print(sorted(layer.state_dict().keys()))
