# Checkpoint compatibility code: load_state_dict(strict=False) and its missing/unexpected
# keys, the strict=True error text, _load_from_state_dict overrides that rename old keys,
# load-state-dict pre/post hooks, and load_state_dict(assign=True).
import torch
import torch.nn as nn
from collections import OrderedDict


class Block(nn.Module):
    _version = 2

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)
        self.norm = nn.LayerNorm(3)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        print("loading", repr(prefix), "version", version)
        if version is None or version < 2:
            for old, new in [("fc.weight", "proj.weight"), ("fc.bias", "proj.bias")]:
                if prefix + old in state_dict:
                    state_dict[prefix + new] = state_dict.pop(prefix + old)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(), Block())
        self.out = nn.Linear(3, 1)


net = Net()
sd = net.state_dict()
print(list(sd.keys()))
print(sd._metadata["blocks.0"], sd._metadata[""])

old = OrderedDict()
for k, v in sd.items():
    old[k.replace("proj", "fc")] = torch.full_like(v, 0.5)
old["extra.thing"] = torch.zeros(2)
del old["out.bias"]
res = net.load_state_dict(old, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
print(net.blocks[0].proj.weight[0])

try:
    net.load_state_dict(old)
except RuntimeError as e:
    print(type(e).__name__, e)

bad = net.state_dict()
bad["out.weight"] = torch.zeros(2, 3)
try:
    net.load_state_dict(bad)
except RuntimeError as e:
    print(type(e).__name__, e)

calls = []


def pre_hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    calls.append(("pre", prefix, strict))


def post_hook(module, incompatible_keys):
    calls.append(("post", list(incompatible_keys.missing_keys)))
    incompatible_keys.missing_keys.clear()


net.out._register_load_state_dict_pre_hook(pre_hook)
h = net.register_load_state_dict_post_hook(post_hook)
sd2 = net.state_dict()
del sd2["out.bias"]
print(net.load_state_dict(sd2, strict=True))
print(calls)
h.remove()

fresh = Net()
sd3 = {k: torch.arange(v.numel(), dtype=torch.float64).view_as(v) for k, v in net.state_dict().items()}
before = fresh.out.weight
fresh.load_state_dict(sd3, assign=True)
print(fresh.out.weight.dtype, type(fresh.out.weight).__name__, fresh.out.weight.requires_grad, fresh.out.weight is before)
fresh2 = Net()
fresh2.load_state_dict(sd3)
print(fresh2.out.weight.dtype, fresh2.out.weight)

try:
    net.load_state_dict([1, 2])
except TypeError as e:
    print(type(e).__name__, e)

# fine-tuning from a checkpoint whose head has another size: the load raises, but every
# entry that fits has been copied (users often rely on this after catching the error)
src = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 4))
dst = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 2))
with torch.no_grad():
    for i, p in enumerate(src.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) * 0.1 + i)
    for p in dst.parameters():
        p.fill_(-1.0)
try:
    dst.load_state_dict(src.state_dict())
except RuntimeError as e:
    print(type(e).__name__, e)
print(dst[0].weight)
print(dst[2].bias)


class Cached(nn.Module):
    """Keeps a derived tensor in sync with its weight after every load."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(2, 2))
        self.register_buffer("scale", torch.tensor(1.0))
        self.register_buffer("inv", torch.eye(2), persistent=False)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
        self.inv = torch.linalg.inv(self.weight.detach())


c = Cached()
print(c.load_state_dict({"weight": torch.tensor([[2.0, 0.0], [1.0, 4.0]]), "scale": torch.tensor([3.0])}))
print(c.inv, c.scale)
