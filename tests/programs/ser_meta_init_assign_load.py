# Loading a big model without allocating random weights first: build it on the meta device,
# then load_state_dict(assign=True) (or to_empty + load). Also state_dict(prefix=...) /
# destination=, and what goes wrong when assign is forgotten.
import io

import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 8)
        self.down = nn.Linear(8, 2)
        self.norm = nn.LayerNorm(2)

    def forward(self, x):
        return self.norm(self.down(torch.relu(self.up(x))))


src = MLP()
with torch.no_grad():
    for i, p in enumerate(src.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p))
buf = io.BytesIO()
torch.save(src.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, map_location="cpu", weights_only=True, mmap=False)

with torch.device("meta"):
    meta_model = MLP()
print(meta_model.up.weight.device, meta_model.up.weight.is_meta, meta_model.up.weight.shape)
print(meta_model.up.weight)
out = meta_model(torch.empty(3, 4, device="meta"))
print(out.shape, out.device)

res = meta_model.load_state_dict(sd, assign=True)
print(res, meta_model.up.weight.device, type(meta_model.up.weight).__name__, meta_model.up.weight.requires_grad)
x = torch.linspace(-1, 1, 12).view(3, 4)
print(torch.allclose(meta_model(x), src(x)), meta_model(x))
print(meta_model.up.weight.data_ptr() == sd["up.weight"].data_ptr())

with torch.device("meta"):
    m2 = MLP()
print(m2.load_state_dict(sd), m2.down.bias.device)

with torch.device("meta"):
    m3 = MLP()
m3.to_empty(device="cpu")
print(m3.up.weight.device, m3.up.weight.shape)
m3.load_state_dict(sd)
print(torch.equal(m3.norm.weight, src.norm.weight))

dest = {}
src.up.state_dict(destination=dest, prefix="encoder.up.")
src.down.state_dict(destination=dest, prefix="encoder.down.")
print(list(dest.keys()))
prefixed = src.state_dict(prefix="model.")
print(list(prefixed.keys())[:2], sorted(prefixed._metadata)[:3])

wrong = dict(sd)
wrong["up.weight"] = torch.zeros(8, 5)
wrong["norm.bias"] = torch.zeros(3)
try:
    MLP().load_state_dict(wrong)
except RuntimeError as e:
    print(e)
try:
    MLP().load_state_dict(wrong, strict=False)
except RuntimeError as e:
    print("strict=False too:", str(e).count("size mismatch"))
