# Checkpoints of models using the older hook-based nn.utils.weight_norm / spectral_norm: their
# extra keys (weight_g / weight_v, weight_orig / weight_u / weight_v), deepcopy, loading into a
# plain model after remove_*, and parameters_to_vector snapshots.
import copy
import io

import torch
import torch.nn as nn
from torch.nn.utils import (parameters_to_vector, remove_spectral_norm, remove_weight_norm,
                            spectral_norm, vector_to_parameters, weight_norm)


def init(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (0.5 + 0.1 * i))
    return m


wn = weight_norm(init(nn.Linear(3, 2)), name="weight")
print(sorted(wn.state_dict().keys()), wn.weight_g.shape, wn.weight_v.shape)
print([n for n, _ in wn.named_parameters()], type(wn.weight).__name__)
x = torch.linspace(-1, 1, 6).view(2, 3)
print(wn(x))

sn = spectral_norm(init(nn.Linear(3, 3)), n_power_iterations=2)
print(sorted(sn.state_dict().keys()))
print([n for n, _ in sn.named_parameters()], [n for n, _ in sn.named_buffers()])
sn.eval()
print(sn.weight_u.shape, sn.weight_v.shape)

buf = io.BytesIO()
torch.save({"wn": wn.state_dict(), "sn": sn.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
wn2 = weight_norm(nn.Linear(3, 2))
print(wn2.load_state_dict(ck["wn"]))
print(torch.allclose(wn2(x), wn(x)))
try:
    nn.Linear(3, 2).load_state_dict(ck["wn"])
except RuntimeError as e:
    print(e)

try:
    copy.deepcopy(wn)
except RuntimeError as e:
    print(type(e).__name__, e)
remove_weight_norm(wn)
print(sorted(wn.state_dict().keys()), type(wn.weight).__name__)
plain = nn.Linear(3, 2)
print(plain.load_state_dict(wn.state_dict()), torch.allclose(plain(x), wn2(x)))
try:
    remove_weight_norm(wn)
except ValueError as e:
    print(type(e).__name__, e)
remove_spectral_norm(sn)
print(sorted(sn.state_dict().keys()))

net = init(nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)))
vec = parameters_to_vector(net.parameters())
print(vec.shape, vec[:4])
with torch.no_grad():
    for p in net.parameters():
        p.mul_(2)
vector_to_parameters(vec, net.parameters())
print(net[2].bias, torch.equal(parameters_to_vector(net.parameters()), vec))
try:
    vector_to_parameters(vec[:-1], net.parameters())
except Exception as e:
    print(type(e).__name__, e)
try:
    parameters_to_vector(net[0].weight)
except Exception as e:
    print(type(e).__name__)
