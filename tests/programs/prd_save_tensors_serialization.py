# torch.save/torch.load of tensors and containers: shared views, dtypes, weights_only allowlist, map_location forms.
import io
import collections
import torch

def roundtrip(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)

base = torch.arange(10, dtype=torch.float32)
view = base[2:6]
a, b = roundtrip([base, view], weights_only=True)
print(a, b)
a[3] = 100.0
print("shared storage kept:", b[1].item())
print(roundtrip(base.t() if base.dim() > 1 else base.reshape(2, 5).t()).stride())
for dt in (torch.float64, torch.int64, torch.int32, torch.bool, torch.float16, torch.uint8):
    t = roundtrip(torch.arange(4).to(dt), map_location="cpu")
    print(dt, t.dtype, t.tolist())
od = collections.OrderedDict(w=torch.ones(2), b=torch.zeros(1))
r = roundtrip(od, weights_only=True)
print(type(r).__name__, list(r.keys()))
p = torch.nn.Parameter(torch.ones(3))
rp = roundtrip(p)
print(type(rp).__name__, rp.requires_grad)
g = torch.ones(2, requires_grad=True) * 2
rg = roundtrip(g.detach())
print(rg.requires_grad, rg)
for ml in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s):
    print(roundtrip({"x": torch.tensor([1.5, 2.5])}, map_location=ml)["x"])
mixed = {"step": 3, "lr": 0.1, "name": "run1", "flags": (True, None), "nested": [{"t": torch.tensor(7)}]}
print(roundtrip(mixed, weights_only=True))

class Custom:
    def __init__(self):
        self.v = 1

try:
    roundtrip({"c": Custom()}, weights_only=True)
except Exception as e:
    print(type(e).__name__)
print(type(roundtrip({"c": Custom()}, weights_only=False)["c"]).__name__)
s = roundtrip(torch.tensor(3.25))
print(s, s.dim(), s.item())
e = roundtrip(torch.empty(0, 3))
print(e.shape, e)
buf = io.BytesIO()
torch.save(torch.ones(2), buf)
print(len(buf.getvalue()) > 0, buf.getvalue()[:2])
