# Users set torch._dynamo.config.capture_scalar_outputs = True so that .item()/.tolist()
# inside a compiled function do not break the graph; data-dependent shapes (nonzero,
# masked_select, boolean indexing) inside torch.compile must still give the right values.
import torch
import torch._dynamo

torch._dynamo.config.capture_scalar_outputs = True
torch._dynamo.config.capture_dynamic_output_shape_ops = True
print(torch._dynamo.config.capture_scalar_outputs)


@torch.compile
def normalize_by_max(x):
    m = x.abs().max().item()
    return x / m, m


@torch.compile
def positive_part(x):
    mask = x > 0
    kept = x[mask]
    idx = torch.nonzero(mask).squeeze(1)
    return kept, idx, torch.masked_select(x, mask).sum()


@torch.compile(dynamic=True)
def top_fraction(scores, frac: float):
    k = max(1, int(scores.numel() * frac))
    vals, idx = torch.topk(scores, k)
    return vals, idx


x = torch.tensor([0.5, -2.0, 1.5, -0.25, 3.0, 0.0])
y, m = normalize_by_max(x)
print(y, type(m).__name__, m)
y2, m2 = normalize_by_max(x * 0.5)
print(y2, m2)

kept, idx, s = positive_part(x)
print(kept, idx, s)
kept, idx, s = positive_part(torch.linspace(-1, 1, 9))
print(kept, idx, s)
kept, idx, s = positive_part(-torch.ones(4))
print(kept, kept.shape, idx, s)

scores = torch.sin(torch.arange(10, dtype=torch.float32))
for frac in (0.2, 0.5):
    v, i = top_fraction(scores, frac)
    print(frac, torch.round(v, decimals=4), i)
v, i = top_fraction(torch.cos(torch.arange(7, dtype=torch.float32)), 0.3)
print(torch.round(v, decimals=4), i)

torch._dynamo.reset()
torch._dynamo.config.capture_scalar_outputs = False
print(torch._dynamo.config.capture_scalar_outputs)
y3, m3 = normalize_by_max(torch.tensor([4.0, -8.0]))
print(y3, m3)
