# Checkpointing models built from lazy modules (LazyLinear / LazyConv1d): the uninitialized
# parameters in state_dict, loading a trained checkpoint into a fresh lazy model (which
# materializes it), and the optimizer needing a dry run first.
import io

import torch
import torch.nn as nn


def build():
    return nn.Sequential(nn.LazyConv1d(4, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2))


model = build()
print(model)
print(type(model[0].weight).__name__, type(model[3].bias).__name__)
print(list(model.state_dict().keys()))
try:
    print(model[0].weight.shape)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:60])
print(model.has_uninitialized_params() if hasattr(model, "has_uninitialized_params") else model[0].has_uninitialized_params())

x = torch.linspace(-1, 1, 2 * 2 * 6).view(2, 2, 6)
model(x)
print(model)
print(type(model[0]).__name__, type(model[0].weight).__name__, model[0].weight.shape, model[3].weight.shape)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).view_as(p) * (i + 1))
print(model(x))

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
fresh = build()
print(fresh.load_state_dict(sd))
print(type(fresh[3]).__name__, fresh[3].in_features, fresh[0].in_channels, fresh[3].weight.shape)
print(torch.equal(fresh(x), model(x)))

lazy_sd = build().state_dict()
print({k: type(v).__name__ for k, v in lazy_sd.items()})
try:
    model.load_state_dict(lazy_sd)
except Exception as e:
    print(type(e).__name__, str(e)[:80])

l = nn.LazyLinear(3)
try:
    torch.optim.SGD(l.parameters(), lr=0.1).step()
    print("optimizer built before dry run")
except Exception as e:
    print(type(e).__name__, e)
l(torch.ones(1, 5))
opt = torch.optim.SGD(l.parameters(), lr=0.1)
print([tuple(p.shape) for g in opt.param_groups for p in g["params"]])

buf = io.BytesIO()
torch.save(build().state_dict(), buf)
buf.seek(0)
try:
    torch.load(buf, weights_only=True)
except Exception as e:
    print(type(e).__name__, [line.strip()[:90] for line in str(e).splitlines() if "WeightsUnpickler" in line])
buf.seek(0)
still_lazy = build()
print(still_lazy.load_state_dict(torch.load(buf, weights_only=False)), type(still_lazy[0].weight).__name__)
