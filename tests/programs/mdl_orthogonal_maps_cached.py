# Orthogonal / learnable parametrizations: parametrizations.orthogonal with each orthogonal_map on
# square weights (QR-initialised), parametrize.cached() to reuse the weight across several forward
# calls (RNN-style), parametrizations that own parameters (state_dict keys), and transfer of
# parametrizations between modules.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal

torch.set_printoptions(precision=4)


def det(m, k=0.0):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) ** 2 * 0.37 + i + k).view_as(p))


for omap in ["matrix_exp", "cayley", "householder"]:
    lin = nn.Linear(3, 3)
    det(lin)
    orthogonal(lin, orthogonal_map=omap)
    W = lin.weight
    eye_err = (W.T @ W - torch.eye(3)).abs().max().item()
    keys = sorted(lin.state_dict().keys())
    print(omap, f"{eye_err:.1e}" if eye_err > 1e-6 else "orthogonal", keys)
    print(W)

lin = nn.Linear(3, 3, bias=False)
det(lin)
orthogonal(lin, use_trivialization=False)
print(sorted(lin.state_dict().keys()))
print(lin.weight)
for omap in ["matrix_exp", "cayley", "householder"]:
    for shape in [(3, 3), (2, 4), (5, 3)]:
        m = orthogonal(nn.Linear(shape[1], shape[0]), orthogonal_map=omap, use_trivialization=False)
        print(omap, shape, m.weight.grad_fn.name(), tuple(m.parametrizations.weight.original.shape))
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.linspace(-1, 1, 9).reshape(3, 3)
for step in range(3):
    opt.zero_grad()
    loss = (lin(x) - x.flip(0)).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")

# a parametrization with its own learnable parameter
class LearnableScale(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(n, 1) * 0.5)

    def forward(self, W):
        return W * self.gain


calls = {"n": 0}


class Counting(nn.Module):
    def forward(self, W):
        calls["n"] += 1
        return W


cell = nn.Linear(4, 4)
det(cell, 1.0)
P.register_parametrization(cell, "weight", LearnableScale(4))
P.register_parametrization(cell, "weight", Counting())
print(sorted(cell.state_dict().keys()))
print(sorted(n for n, p in cell.named_parameters()))
h = torch.zeros(1, 4)
inp = torch.linspace(0, 1, 4).view(1, 4)
for _ in range(5):
    h = torch.tanh(cell(h) + inp)
print("uncached calls", calls["n"])
calls["n"] = 0
h = torch.zeros(1, 4)
with P.cached():
    for _ in range(5):
        h = torch.tanh(cell(h) + inp)
print("cached calls", calls["n"])
h.sum().backward()
print(cell.parametrizations.weight[0].gain.grad.flatten())

target = nn.Linear(4, 4)
P.transfer_parametrizations_and_params(cell, target)
print(type(target).__name__, P.type_before_parametrizations(target).__name__)
print(torch.equal(target.weight, cell.weight), sorted(target.state_dict().keys()))
print(target.parametrizations.weight[0].gain is cell.parametrizations.weight[0].gain)
