# Checkpoints of modules with parametrizations (weight_norm, spectral_norm, orthogonal, a custom
# Symmetric one): the state_dict keys, loading into a fresh parametrized model, and
# remove_parametrizations before export so the plain key names come back.
import io

import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


def build():
    m = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) * 0.1 - 0.2 * i)
    return m


m = build()
P.register_parametrization(m[0], "weight", Symmetric())
parametrizations.weight_norm(m[2], name="weight", dim=0)
print(list(m.state_dict().keys()))
print(m[0])
print(P.is_parametrized(m[0]), P.is_parametrized(m[0], "bias"), P.is_parametrized(m[1]))
print(m[0].weight)
print(m[2].parametrizations.weight.original0.shape, m[2].parametrizations.weight.original1.shape)

buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
m2 = build()
P.register_parametrization(m2[0], "weight", Symmetric())
parametrizations.weight_norm(m2[2], name="weight", dim=0)
print(m2.load_state_dict(sd))
x = torch.linspace(-1, 1, 6).view(2, 3)
print(torch.allclose(m2(x), m(x)))
try:
    build().load_state_dict(sd)
except RuntimeError as e:
    print(e)

P.remove_parametrizations(m2[0], "weight", leave_parametrized=True)
P.remove_parametrizations(m2[2], "weight")
print(list(m2.state_dict().keys()), type(m2[0].weight).__name__)
print(torch.allclose(m2(x), m(x)), m2[0].weight)
try:
    P.remove_parametrizations(m2[0], "weight")
except ValueError as e:
    print(type(e).__name__, e)

o = nn.Linear(3, 3)
parametrizations.orthogonal(o)
print([k for k in o.state_dict()])
Q = o.weight
print(torch.allclose(Q @ Q.T, torch.eye(3), atol=1e-5))
sn = parametrizations.spectral_norm(nn.Linear(4, 3))
print(sorted(sn.state_dict().keys()))
