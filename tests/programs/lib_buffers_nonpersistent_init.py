# register_buffer(persistent=False) and nn.init recipes as model libraries use them:
# which buffers reach state_dict, load_state_dict strictness, and RNG-independent init facts.
import math

import torch
import torch.nn as nn


class RotaryCache(nn.Module):
    def __init__(self, dim, max_len=8):
        super().__init__()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_len).float()
        self.register_buffer("freqs", torch.outer(t, inv_freq))
        self.register_buffer("maybe", None)
        self.proj = nn.Linear(dim, dim)


m = RotaryCache(4)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()], m.maybe)
print(m.inv_freq, m.freqs[:3])
print(m._non_persistent_buffers_set)
sd = m.state_dict()
m2 = RotaryCache(4)
res = m2.load_state_dict(sd)
print(res, res.missing_keys)
sd.pop("freqs")
res = m2.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    m2.load_state_dict({**sd, "inv_freq": torch.zeros(2)})
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip())
try:
    m.register_buffer("proj", torch.zeros(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    m.register_buffer("bad.name", torch.zeros(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    m.register_buffer("w", [1, 2])
except TypeError as e:
    print(type(e).__name__, e)
m.inv_freq = torch.ones(2)
print("inv_freq" in m._buffers, m.inv_freq)
m.half_dtype = m.freqs.double()
print(m.freqs.dtype, m.to(torch.float64).inv_freq.dtype, "half_dtype" in m._buffers)


def init_weights(module):
    if isinstance(module, nn.Linear):
        nn.init.trunc_normal_(module.weight, std=0.02)
        if module.bias is not None:
            nn.init.constant_(module.bias, 0)
    elif isinstance(module, nn.LayerNorm):
        nn.init.ones_(module.weight)
        nn.init.zeros_(module.bias)
    elif isinstance(module, nn.Conv2d):
        nn.init.kaiming_normal_(module.weight, mode="fan_out", nonlinearity="relu")


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), nn.Linear(8, 4), nn.LayerNorm(4))
out = net.apply(init_weights)
print(out is net, net[2].bias, net[3].weight)
w = net[2].weight
print(w.shape, bool(w.abs().max() <= 2.0), w.requires_grad, w.grad_fn)
big = torch.empty(2000)
nn.init.trunc_normal_(big, mean=0.0, std=1.0, a=-0.5, b=0.5)
print(big.min() >= -0.5, big.max() <= 0.5)
print(nn.init._calculate_fan_in_and_fan_out(net[0].weight))
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"), nn.init.calculate_gain("conv2d"))
r = nn.init.xavier_uniform_(torch.empty(3, 5), gain=2.0)
print(type(r).__name__, r.shape, bool(r.abs().max() <= 2.0 * math.sqrt(6 / 8)))
try:
    nn.init.kaiming_uniform_(torch.empty(5))
except ValueError as e:
    print(type(e).__name__, e)
try:
    nn.init.kaiming_normal_(torch.empty(3, 4), mode="fan_avg")
except ValueError as e:
    print(type(e).__name__, e)
try:
    nn.init.calculate_gain("foo")
except ValueError as e:
    print(type(e).__name__, e)
print(nn.init.dirac_(torch.empty(2, 2, 3))[:, :, 1])
