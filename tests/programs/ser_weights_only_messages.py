# What users see when torch.load(weights_only=True) meets non-tensor objects: the full
# "Weights only load failed" message, allowlisting with add_safe_globals/safe_globals, and
# which builtin containers/types load fine without allowlisting.
import collections
import enum
import io

import torch


class Precision(enum.Enum):
    FP32 = "fp32"
    BF16 = "bf16"


class RunInfo:
    def __init__(self, name, steps):
        self.name = name
        self.steps = steps


def roundtrip(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)


Point = collections.namedtuple("Point", ["x", "y"])
ok = roundtrip({
    "shape": torch.Size([2, 3]),
    "dtype": torch.float16,
    "device": torch.device("cpu"),
    "od": collections.OrderedDict(a=1, b=2.5),
    "set": {1, 2},
    "tuple": (1, "two", None, True),
    "bytes": b"\x00\x01",
    "complex": 1 + 2j,
}, weights_only=True)
for k, v in ok.items():
    print(k, type(v).__name__, v)

for obj in [RunInfo("r1", 10), Precision.BF16, Point(1, 2), collections.defaultdict(list, {"k": [1]})]:
    try:
        roundtrip({"info": obj}, weights_only=True)
    except Exception as e:
        print(type(e).__name__)
        print(str(e))

with torch.serialization.safe_globals([RunInfo]):
    info = roundtrip({"info": RunInfo("r2", 7)}, weights_only=True)["info"]
print(type(info).__name__, info.name, info.steps)
torch.serialization.add_safe_globals([Precision, Point])
print(roundtrip([Precision.FP32, Point(3, 4)], weights_only=True))
print(roundtrip(Precision.BF16, weights_only=False))
torch.serialization.clear_safe_globals()

buf = io.BytesIO()
torch.save({"info": RunInfo("r3", 1), "w": torch.ones(2)}, buf)
buf.seek(0)
print(torch.serialization.get_unsafe_globals_in_checkpoint(buf))
