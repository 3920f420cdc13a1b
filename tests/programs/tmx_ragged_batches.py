# Ragged batch bookkeeping: lengths -> segment ids via repeat_interleave (tensor repeats, output_size),
# offsets via cumsum, splitting the flat batch back with split/tensor_split, padding with pad_sequence.
import torch
from torch.nn.utils.rnn import pad_sequence

lengths = torch.tensor([3, 0, 2, 4])
flat = torch.arange(9.0) * 1.5
seg = torch.repeat_interleave(torch.arange(len(lengths)), lengths, output_size=9)
print(seg, seg.dtype)
print(torch.repeat_interleave(lengths))
offsets = torch.cat([lengths.new_zeros(1), lengths.cumsum(0)])
print(offsets, lengths.cumsum(0, dtype=torch.int32).dtype)

parts = flat.split(lengths.tolist())
print([p.tolist() for p in parts])
parts2 = torch.tensor_split(flat, offsets[1:-1])
print([tuple(p.shape) for p in parts2])
print([p.tolist() for p in torch.tensor_split(flat, 4)])
print([p.tolist() for p in torch.tensor_split(flat, [2, 2, 7])])
print([p.shape for p in torch.chunk(torch.arange(10), 4)], [p.shape for p in torch.arange(5).chunk(4)])
m = torch.arange(14).view(2, 7)
print([p.tolist() for p in m.tensor_split(3, dim=1)])
print([p.shape for p in m.split([3, 4], dim=-1)])

padded = pad_sequence([p for p in parts if len(p)], batch_first=True, padding_value=-1.0)
print(padded)
print(pad_sequence([torch.ones(2, 3), torch.zeros(1, 3)]).shape)
print(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], padding_side="left", batch_first=True))

# per-segment mean via scatter_add and bincount
sums = torch.zeros(len(lengths)).scatter_add_(0, seg, flat)
cnts = torch.bincount(seg, minlength=len(lengths))
print(sums / cnts.clamp(min=1), cnts)
print(torch.bincount(seg, weights=flat, minlength=6))
print(torch.bincount(torch.tensor([], dtype=torch.long), minlength=3), torch.bincount(torch.tensor([2, 2], dtype=torch.uint8)))

# repeat_interleave on 2-d with dim, scalar repeats, and gradient
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
y = x.repeat_interleave(torch.tensor([2, 0, 1]), dim=0)
print(y)
(y * torch.arange(6.0).view(3, 2)).sum().backward()
print(x.grad, y.grad_fn.name())
print(x.repeat_interleave(2).shape, x.detach().repeat_interleave(2, dim=1))
try:
    torch.repeat_interleave(torch.arange(3), torch.tensor([1, -1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.repeat_interleave(torch.arange(3), torch.tensor([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    flat.split([3, 3])
except Exception as e:
    print(type(e).__name__, e)

# a long event stream: per-bucket totals of float32 weights
stream_ids = torch.arange(1000) % 7
stream_w = torch.linspace(0.0, 1.0, 1000)
print(torch.bincount(stream_ids, weights=stream_w).tolist())
print(torch.bincount(stream_ids, weights=stream_w.double()).dtype)
