# Backward-compatible checkpoints the way libraries write them: a module overriding
# _load_from_state_dict to rename old keys, _save_to_state_dict to add an extra entry, the
# _metadata "version" bookkeeping, and a save/load round trip through io.BytesIO.
import io
from collections import OrderedDict

import torch
import torch.nn as nn


class Gate(nn.Module):
    _version = 2

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.tensor([1.0, 2.0]))
        self.register_buffer("scale", torch.tensor(0.5))

    def forward(self, x):
        return x * self.weight * self.scale

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        print("loading", repr(prefix), "version", version)
        if (version is None or version < 2) and prefix + "w" in state_dict:
            state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "norm"] = self.weight.detach().norm()


net = nn.Sequential(nn.Linear(2, 2), Gate())
with torch.no_grad():
    net[0].weight.copy_(torch.eye(2))
    net[0].bias.zero_()
sd = net.state_dict()
print(list(sd.keys()))
print(sd._metadata)
print(sd["1.scale"], sd.get("1.norm"))

old = OrderedDict([("0.weight", torch.eye(2) * 2), ("0.bias", torch.zeros(2)),
                   ("1.w", torch.tensor([3.0, 4.0])), ("1.scale", torch.tensor(1.0))])
print(net.load_state_dict(old, strict=False))
print(net[1].weight.data, net[1].scale, net(torch.ones(1, 2)))

buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
loaded = torch.load(buf)
print(type(loaded).__name__, list(loaded.keys()), getattr(loaded, "_metadata", None))
fresh = nn.Sequential(nn.Linear(2, 2), Gate())
print(fresh.load_state_dict(loaded, strict=False))
print(fresh[1].weight.data, fresh(torch.ones(1, 2)))
try:
    fresh.load_state_dict(loaded)
except RuntimeError as e:
    print(type(e).__name__, e)
