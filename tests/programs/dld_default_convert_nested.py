# default_collate / default_convert applied to the nested structures a Dataset returns
# (numpy arrays, dicts, namedtuples, strings, python scalars) and the errors users hit.
import collections
import numpy as np
import torch
from torch.utils.data import default_collate, default_convert

Point = collections.namedtuple("Point", ["xy", "label"])

samples = [
    {"x": np.arange(3, dtype=np.float32) + i, "y": i, "name": f"s{i}", "w": 0.5 * i,
     "flag": i % 2 == 0, "meta": {"id": np.int64(i), "pos": (i, i + 1)}}
    for i in range(3)
]
batch = default_collate(samples)
for k in ["x", "y", "name", "w", "flag"]:
    v = batch[k]
    print(k, type(v).__name__, getattr(v, "dtype", None), v)
print("meta.id", batch["meta"]["id"], batch["meta"]["id"].dtype)
print("meta.pos", type(batch["meta"]["pos"]).__name__, batch["meta"]["pos"])

pts = [Point(np.array([i, 2 * i], dtype=np.int32), i) for i in range(4)]
pb = default_collate(pts)
print(type(pb).__name__, pb._fields, pb.xy.dtype, pb.xy.shape)
print(pb.label)

# default_convert: numpy -> tensor without batching
conv = default_convert({"a": np.ones((2, 2), dtype=np.float64), "b": [np.int16(3), "txt"],
                        "c": (np.array([1.5]), 7)})
print(type(conv["a"]).__name__, conv["a"].dtype)
print(conv["b"], type(conv["b"][0]).__name__)
print(conv["c"])
print(default_convert(np.array([1, 2, 3], dtype=np.uint8)))
print(default_convert(Point(np.zeros(2, dtype=np.float32), 1)))
print(default_convert(np.array(["a", "b"])))

# collate of 0-d numpy scalars and a list of tensors
print(default_collate([np.float32(1.5), np.float32(2.5)]))
print(default_collate([np.float64(1.0), np.float64(2.0)]).dtype)
print(default_collate([torch.tensor(1), torch.tensor(2)]))
print(default_collate([[1, 2], [3, 4], [5, 6]]))
print(default_collate([(1.0, "a"), (2.0, "b")]))

# errors
cases = [
    ("mismatched sizes", [torch.zeros(3), torch.zeros(4)]),
    ("ragged lists", [[1, 2], [3]]),
    ("unsupported type", [object(), object()]),
    ("numpy strings", [np.array(["a"]), np.array(["b"])]),
    ("none", [None, None]),
]
for name, data in cases:
    try:
        out = default_collate(data)
        print(name, "ok", out)
    except Exception as e:
        print(name, "->", type(e).__name__, str(e).split("\n")[0][:120])
