# nn.Embedding module surface that users poke at: _weight/_freeze constructor args,
# reset_parameters zeroing the padding row, extra_repr, dtype kwargs, int32/empty/3-D indices,
# max_norm with repeated ids and on EmbeddingBag, torch.embedding_renorm_, left-padding.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

w = torch.arange(12, dtype=torch.float32).view(4, 3) / 4
e = nn.Embedding(4, 3, _weight=w.clone(), _freeze=True, padding_idx=1)
print(e, e.weight.requires_grad)
print(e.weight[1])
e2 = nn.Embedding(4, 3, padding_idx=2)
e2.reset_parameters()
print(e2.weight[2])
e3 = nn.Embedding(10, 2, padding_idx=-3, max_norm=2.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)
print(e3)
print(e3.padding_idx, e3.num_embeddings, e3.embedding_dim)
e4 = nn.Embedding(3, 2, dtype=torch.float64)
print(e4.weight.dtype, e4(torch.tensor([0])).dtype)
print(nn.EmbeddingBag(5, 2, mode="max", max_norm=1.0, padding_idx=0))

# index dtypes and shapes
print(e(torch.tensor([3, 0], dtype=torch.int32)))
print(e(torch.tensor([], dtype=torch.long)).shape)
print(e(torch.zeros(2, 0, dtype=torch.long)).shape)
print(e(torch.tensor([[[0, 3]], [[2, 2]]])).shape)
print(e(torch.tensor(2)))

# max_norm when the same id appears several times
m = nn.Embedding(4, 3, max_norm=1.0)
with torch.no_grad():
    m.weight.copy_(w)
out = m(torch.tensor([3, 3, 2, 3]))
print(out)
print(m.weight.detach().norm(dim=1))
out.sum().backward()
print(m.weight.grad)

# EmbeddingBag with max_norm
b = nn.EmbeddingBag(4, 3, mode="sum", max_norm=1.0)
with torch.no_grad():
    b.weight.copy_(w)
print(b(torch.tensor([[1, 2], [3, 3]])))
print(b.weight.detach().norm(dim=1))

# the underlying in-place op
t = w.clone()
r = torch.embedding_renorm_(t, torch.tensor([2, 3]), 1.5, 2.0)
print(r is t, t.norm(dim=1))

# F.embedding with max_norm on a leaf that requires grad
leaf = w.clone().requires_grad_()
y = F.embedding(torch.tensor([3]), leaf, max_norm=1.0)
print(y.grad_fn.name(), leaf.norm(dim=1).detach())
y.sum().backward()
print(leaf.grad)

# left-padding for decoder-only models
seqs = [torch.tensor([5, 6, 7]), torch.tensor([8]), torch.tensor([9, 4])]
print(pad_sequence(seqs, batch_first=True, padding_value=0, padding_side="left"))
print(pad_sequence(seqs, padding_value=-1))
lens = torch.tensor([len(s) for s in seqs])
L = 3
left_mask = torch.arange(L)[None, :] >= (L - lens)[:, None]
print(left_mask)
position_ids = (left_mask.long().cumsum(-1) - 1).clamp_min(0)
print(position_ids)
