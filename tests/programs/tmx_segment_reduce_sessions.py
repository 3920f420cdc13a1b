# Per-session aggregates of a flat event stream with torch.segment_reduce (lengths / offsets,
# unsafe, initial, axis) checked against a scatter_reduce group-by, with gradients.
import torch

events = torch.tensor([1.0, 4.0, 2.0, 0.5, 3.0, 3.0, -1.0, 6.0, 2.5])
lengths = torch.tensor([3, 0, 2, 4])

for reduce in ["sum", "mean", "max", "min", "prod"]:
    out = torch.segment_reduce(events, reduce, lengths=lengths)
    print(f"{reduce:4s}", out)
print(torch.segment_reduce(events, "max", lengths=lengths, initial=0.0))
print(torch.segment_reduce(events, "sum", lengths=lengths, unsafe=True))
offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)])
print(offsets, torch.segment_reduce(events, "mean", offsets=offsets))

# the same group-by with scatter_reduce: empty groups keep the initial value
seg = torch.repeat_interleave(torch.arange(4), lengths)
print(torch.zeros(4).scatter_reduce(0, seg, events, "mean", include_self=False))
print(torch.full((4,), float("-inf")).scatter_reduce(0, seg, events, "amax"))

# 2-d data, segments along axis 1, 2-d lengths (one row of lengths per row of data)
data = torch.arange(12.0).view(2, 6)
try:
    torch.segment_reduce(data, "sum", lengths=torch.tensor([2, 4]), axis=1)
except Exception as e:
    print(type(e).__name__, e)
lens2 = torch.tensor([[1, 2, 3], [3, 3, 0]])
print(torch.segment_reduce(data, "max", lengths=lens2, axis=1))
print(torch.segment_reduce(data.t(), "mean", lengths=torch.tensor([4, 2]), axis=0))

# gradients
x = events.clone().requires_grad_(True)
for reduce in ["sum", "mean", "max", "prod"]:
    x.grad = None
    y = torch.segment_reduce(x, reduce, lengths=lengths, initial=1.0)
    (y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    print(reduce, y.grad_fn.name(), x.grad)

try:
    torch.segment_reduce(events, "sum", lengths=torch.tensor([3, 3]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.segment_reduce(events, "median", lengths=lengths)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.segment_reduce(events, "sum")
except Exception as e:
    print(type(e).__name__, e)
