# Compiled functions that take and return structured Python values: namedtuples, dataclasses,
# nested dicts/lists of tensors, Python lists of floats and ints, None entries.
import dataclasses
from collections import namedtuple
from typing import Optional

import torch

Stats = namedtuple("Stats", ["mean", "var", "count"])


@dataclasses.dataclass
class Batch:
    x: torch.Tensor
    y: torch.Tensor
    weight: Optional[torch.Tensor] = None


@torch.compile
def batch_stats(t):
    return Stats(t.mean(dim=0), t.var(dim=0, unbiased=False), t.shape[0])


@torch.compile
def weighted_mse(batch: Batch, extras):
    err = (batch.x - batch.y) ** 2
    if batch.weight is not None:
        err = err * batch.weight
    out = {"loss": err.mean(), "per_row": err.sum(dim=1), "scaled": [err.sum() * s for s in extras["scales"]]}
    out["meta"] = (extras["tag"], len(extras["scales"]))
    return out


data = torch.arange(12, dtype=torch.float32).view(4, 3) / 4
st = batch_stats(data)
print(type(st).__name__, st._fields)
print(st.mean, st.var, st.count, type(st.count).__name__)
m, v, n = batch_stats(data[:2])
print(m, v, n)

b = Batch(x=data, y=torch.ones(4, 3))
res = weighted_mse(b, {"scales": [1.0, 0.5], "tag": "plain"})
print(sorted(res.keys()))
print(f"{res['loss'].item():.4f}", res["per_row"], res["scaled"], res["meta"])

b2 = Batch(x=data, y=torch.ones(4, 3), weight=torch.tensor([1.0, 0.0, 2.0]))
res2 = weighted_mse(b2, {"scales": [2.0, 1.0, 0.1], "tag": "weighted"})
print(f"{res2['loss'].item():.4f}", res2["per_row"], [round(t.item(), 3) for t in res2["scaled"]], res2["meta"])

# gradient through a structured output
leaf = torch.linspace(0.0, 1.0, 6).view(2, 3).requires_grad_()
weighted_mse(Batch(leaf, torch.zeros(2, 3)), {"scales": [1.0], "tag": "grad"})["loss"].backward()
print(leaf.grad)
