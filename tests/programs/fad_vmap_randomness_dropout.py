# Monte-Carlo dropout and noisy ensembles under vmap's randomness modes, as in functorch's
# ensembling notes: randomness="error" refuses random ops, "same" shares one draw across the
# batch, "different" draws per example; checked through properties that do not depend on the RNG.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap

torch.set_default_dtype(torch.float64)

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.3 + 0.1 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).view_as(p))
x = torch.ones(4)
batch = x.expand(6, 4).contiguous()  # six identical examples

net.train()
try:
    vmap(net)(batch)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])

same = vmap(net, randomness="same")(batch)
print("same: rows identical:", all(torch.equal(same[0], r) for r in same))

torch.manual_seed(0)
different = vmap(net, randomness="different")(batch)
print("different: shape", tuple(different.shape), "rows identical:", all(torch.equal(different[0], r) for r in different))

# dropout keeps the expectation: the sum of kept activations is scaled by 1/(1-p)
hidden = F.relu(net[0](x))
masks = vmap(lambda h: F.dropout(h, 0.5, training=True), randomness="different")(hidden.expand(5, 8))
print("dropout values are 0 or 2*h:", bool(((masks == 0) | torch.isclose(masks, 2 * hidden)).all()))

net.eval()
print("eval mode ignores randomness:", torch.allclose(vmap(net)(batch), net(batch)))

# randomness with in_dims=None input: "same" gives one draw for all, "different" per example
noise_same = vmap(lambda v: v + torch.randn(3), in_dims=0, randomness="same")(torch.zeros(4, 3))
print("randn same rows equal:", all(torch.equal(noise_same[0], r) for r in noise_same))
noise_diff = vmap(lambda v: v + torch.rand(3), randomness="different")(torch.zeros(4, 3))
print("rand different in [0,1):", bool(((noise_diff >= 0) & (noise_diff < 1)).all()), tuple(noise_diff.shape))
bern = vmap(lambda p: torch.bernoulli(p), randomness="different")(torch.tensor([[0.0, 1.0], [1.0, 0.0]]))
print("bernoulli with p in {0,1}:", bern)

try:
    vmap(lambda v: v + torch.randn(3), randomness="sometimes")(torch.zeros(2, 3))
except Exception as e:
    print(type(e).__name__, e)

# an ensemble of dropout nets, MC-dropout averaged per member
members = [nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2)) for _ in range(3)]
for m, net_m in enumerate(members):
    with torch.no_grad():
        for i, p in enumerate(net_m.parameters()):
            p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * (m + 1) + i).view_as(p))
params, buffers = stack_module_state(members)
members[0].eval()
out = vmap(lambda p, b, inp: functional_call(members[0], (p, b), (inp,)), in_dims=(0, 0, None))(params, buffers, batch)
print("ensemble eval output", tuple(out.shape))
print(out[:, 0])
members[0].train()
samples = torch.stack([vmap(lambda p, b, inp: functional_call(members[0], (p, b), (inp,)),
                            in_dims=(0, 0, None), randomness="same")(params, buffers, batch) for _ in range(4)])
print("mc samples", tuple(samples.shape), "all rows of a draw equal:",
      all(torch.equal(s[:, 0], s[:, k]) for s in samples for k in range(6)))
