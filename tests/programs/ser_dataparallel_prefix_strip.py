# Loading a checkpoint saved from nn.DataParallel ("module." prefixed keys) into a plain model:
# the strict error, stripping the prefix by hand and with consume_prefix_in_state_dict_if_present.
import io
from collections import OrderedDict

import torch
import torch.nn as nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
        self.bn = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.bn(self.features(x))


src = Net()
with torch.no_grad():
    for i, p in enumerate(src.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) * 0.01 - 0.02 * i)
wrapped_sd = OrderedDict(("module." + k, v) for k, v in src.state_dict().items())
buf = io.BytesIO()
torch.save(wrapped_sd, buf)
buf.seek(0)
ckpt = torch.load(buf, map_location="cpu", weights_only=True)
print(type(ckpt).__name__, list(ckpt.keys())[:3])

model = Net()
try:
    model.load_state_dict(ckpt)
except RuntimeError as e:
    print(type(e).__name__)
    print(e)

res = model.load_state_dict(ckpt, strict=False)
print(res)
print(len(res.missing_keys), len(res.unexpected_keys), res.missing_keys[-1])

clean = OrderedDict((k[len("module."):] if k.startswith("module.") else k, v) for k, v in ckpt.items())
print(model.load_state_dict(clean))
print(torch.equal(model.features[2].weight, src.features[2].weight))

ckpt2 = OrderedDict(ckpt)
consume_prefix_in_state_dict_if_present(ckpt2, "module.")
print(list(ckpt2.keys()))
print(sorted(getattr(ckpt2, "_metadata", {}).keys()) if hasattr(ckpt2, "_metadata") else "no metadata")
model2 = Net()
print(model2.load_state_dict(ckpt2))
print(model2.bn.num_batches_tracked, model2.features[0].bias)

sd_meta = src.state_dict()
print(sorted(sd_meta._metadata.keys()))
print(sd_meta._metadata["bn"], sd_meta._metadata["features.0"])
consume_prefix_in_state_dict_if_present(sd_meta, "features.")
print(list(sd_meta.keys()))
print(sorted(sd_meta._metadata.keys()))
