# Stateless evaluation of a (parametrized / tied / pruned) model with torch.func.functional_call:
# swapping in candidate weights by name (including parametrizations.weight.original), tied weights,
# strict mode errors, and buffers, e.g. for a hand-written MAML inner loop.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P
from torch.func import functional_call


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 3, bias=False)
        self.dec = nn.Linear(3, 4, bias=False)
        self.dec.weight = None
        self.register_buffer("shift", torch.tensor([0.5, -0.5, 0.25]))

    def forward(self, x):
        z = torch.tanh(self.enc(x) + self.shift)
        return z @ self.enc.weight


class Softplus(nn.Module):
    def forward(self, W):
        return F.softplus(W)


m = Tied()
with torch.no_grad():
    m.enc.weight.copy_(torch.sin(torch.arange(12, dtype=torch.float32)).view(3, 4))
x = torch.linspace(-1, 1, 8).view(2, 4)
print(m(x))
print(sorted(dict(m.named_parameters()).keys()), sorted(dict(m.named_buffers()).keys()))

params = {k: v.detach() * 2 for k, v in m.named_parameters()}
print(functional_call(m, params, (x,)))
print(functional_call(m, {"shift": torch.zeros(3)}, x))
print(functional_call(m, ({"enc.weight": torch.ones(3, 4)}, {"shift": torch.ones(3)}), (x,)))
print(m.enc.weight[0], m.shift)

try:
    functional_call(m, {"enc.weight": torch.ones(3, 4)}, (x,), strict=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    functional_call(m, {"enc.wieght": torch.ones(3, 4)}, (x,), strict=True)
except Exception as e:
    print(type(e).__name__, e)

# MAML-style inner step through functional_call
y = x.flip(1)
fast = dict(m.named_parameters())
for step in range(3):
    loss = F.mse_loss(functional_call(m, fast, (x,)), y)
    grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
    fast = {k: v - 0.1 * g for (k, v), g in zip(fast.items(), grads)}
    print(step, f"{loss.item():.5f}")
meta_loss = F.mse_loss(functional_call(m, fast, (x,)), y)
meta_loss.backward()
print(f"{meta_loss.item():.5f}", m.enc.weight.grad[0])

# parametrized module: keys are the *original* tensors
pm = nn.Linear(4, 2)
with torch.no_grad():
    pm.weight.copy_(torch.cos(torch.arange(8, dtype=torch.float32)).view(2, 4))
    pm.bias.zero_()
P.register_parametrization(pm, "weight", Softplus())
names = [k for k, _ in pm.named_parameters()]
print(names)
print(functional_call(pm, {"parametrizations.weight.original": torch.zeros(2, 4)}, (x,)))
try:
    print(functional_call(pm, {"weight": torch.ones(2, 4)}, (x,)))
except RuntimeError as e:
    print("RuntimeError", e)
print(pm(x))
