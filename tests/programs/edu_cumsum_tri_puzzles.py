# Puzzles built from cumsum/cumprod/tril/triu/diag_embed/diagonal: causal masks, running
# maxima, segment ids, sequence masks from lengths, banded matrices, batched traces.
import torch

n = 5
print(torch.tril(torch.ones(n, n)))
print(torch.triu(torch.ones(3, 4), diagonal=1))
print(torch.tril(torch.arange(12).reshape(3, 4), diagonal=-1))
print(torch.triu(torch.arange(24).reshape(2, 3, 4), 2))
mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
scores = torch.arange(16.0).reshape(4, 4).masked_fill(mask, float("-inf"))
print(scores.softmax(-1))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, offset=1))
print(torch.tril_indices(4, 3, -1).shape)

# band matrix from diag_embed
band = torch.diag_embed(torch.full((4,), 2.0)) + torch.diag_embed(-torch.ones(3), offset=1) + torch.diag_embed(-torch.ones(3), offset=-1)
print(band)
print(torch.diag_embed(torch.arange(6.0).reshape(2, 3)).shape, torch.diag_embed(torch.arange(1, 4), dim1=0, dim2=1).shape)
print(torch.diag_embed(torch.arange(6).reshape(2, 3), offset=-1, dim1=-1, dim2=0)[:, :, 0])
B = torch.arange(2 * 3 * 3.0).reshape(2, 3, 3)
print(torch.diagonal(B, dim1=-2, dim2=-1), torch.diagonal(B, offset=1, dim1=1, dim2=2))
print(B.diagonal(dim1=-2, dim2=-1).sum(-1), torch.vmap(torch.trace)(B) if hasattr(torch, "vmap") else None)
print(torch.diagonal(B, 0, 0, 2).shape, B.diagonal(-2, 1, 2))
print(torch.diag(torch.tensor([1, 2])), torch.diag(torch.arange(9).reshape(3, 3), 1), torch.diagflat(torch.tensor([[1, 2], [3, 4]])))
d = B.clone()
d.diagonal(dim1=1, dim2=2).zero_()
print(d[1])
d.diagonal(dim1=1, dim2=2).copy_(torch.tensor([7.0, 8.0, 9.0]))
print(d[0])
print(torch.eye(3).fill_diagonal_(4), torch.zeros(5, 3).fill_diagonal_(1, wrap=True))

# cumsum tricks
x = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6])
print(x.cumsum(0), x.cumprod(0), x.cummax(0), x.flip(0).cummin(0).values.flip(0))
starts = torch.tensor([1, 0, 0, 1, 0, 1, 1, 0])
print("segment ids", starts.cumsum(0) - 1)
lengths = torch.tensor([3, 1, 4])
print(torch.arange(4)[None, :] < lengths[:, None])
print((torch.ones(3, 4).cumsum(1) <= lengths[:, None]).int())
# exclusive cumsum
print(torch.cat([torch.zeros(1, dtype=x.dtype), x.cumsum(0)[:-1]]))
print(torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), 0))
# cumsum dtype rules
print(torch.tensor([1, 2], dtype=torch.int8).cumsum(0).dtype, torch.tensor([True, True]).cumsum(0))
print(torch.tensor([1.0, 2.0]).cumsum(0, dtype=torch.float64))
# running mean with cumsum
s = torch.arange(1.0, 9.0)
print(s.cumsum(0) / torch.arange(1, 9))
w = 3
cs = torch.cat([torch.zeros(1), s.cumsum(0)])
print((cs[w:] - cs[:-w]) / w)
# gradients through cumsum and tril
z = torch.arange(4.0, requires_grad=True)
z.cumsum(0).sum().backward()
print(z.grad)
m = torch.ones(3, 3, requires_grad=True)
torch.tril(m).sum().backward()
print(m.grad)
q = torch.arange(1.0, 5.0, requires_grad=True)
q.cumprod(0)[-1].backward()
print(q.grad)
