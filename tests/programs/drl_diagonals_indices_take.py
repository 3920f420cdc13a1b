# Exercises on diagonals and flat indexing: diagonal with offsets/dims, diag_embed for batches,
# tril/triu_indices to vectorize a symmetric matrix, take / take_along_dim (np.take_along_axis),
# atleast_Nd and vander (np.vander) -- values, views, gradients and errors.
import torch

b = torch.arange(24.).view(2, 3, 4)
print(b.diagonal(), b.diagonal(offset=1, dim1=1, dim2=2), torch.diagonal(b, -1, 1, 2))
print(torch.diagonal(b, 0, 0, 2), b.diagonal(2, -1, -2), b.diagonal(5, 1, 2).shape, b.diagonal(-3, 1, 2).shape)
d = b.diagonal(1, 1, 2)
print(d.is_contiguous(), d.stride(), d.storage_offset(), d._base is b)
print(torch.diag_embed(torch.tensor([[1, 2], [3, 4]])), torch.diag_embed(torch.tensor([1., 2.]), offset=1))
print(torch.diag_embed(torch.tensor([1., 2.]), offset=-1, dim1=1, dim2=0), torch.diag_embed(torch.ones(2, 3), dim1=0, dim2=2).shape)

n = 4
r, c = torch.tril_indices(n, n)
print(r, c, torch.tril_indices(3, 3, offset=-1), torch.triu_indices(3, 4, 1), torch.triu_indices(2, 2, -5))
print(torch.tril_indices(3, 3).dtype, torch.triu_indices(3, 3, dtype=torch.int32).dtype, torch.tril_indices(0, 0).shape)
S = torch.arange(16.).view(4, 4)
iu = torch.triu_indices(4, 4, offset=1)
print(S[iu[0], iu[1]], S[tuple(torch.tril_indices(4, 4))])

src = torch.tensor([[4, 3, 5], [6, 7, 8]])
print(torch.take(src, torch.tensor([0, 2, 5])), src.take(torch.tensor([[-1, 0], [1, -6]])))
scores = torch.tensor([[0.1, 0.9, 0.3], [0.8, 0.2, 0.5]])
idx = scores.argsort(dim=1, descending=True)
print(torch.take_along_dim(scores, idx, dim=1), torch.take_along_dim(scores, scores.argmax(1, keepdim=True), 1))
print(torch.take_along_dim(scores, torch.tensor([5, 0])), scores.take_along_dim(torch.tensor([[2], [0]]), dim=-1))
print(torch.take_along_dim(scores, torch.tensor([[0, 1, 1]]), dim=0))

print(torch.atleast_1d(torch.tensor(3.)), torch.atleast_2d(torch.tensor([1, 2])), torch.atleast_3d(torch.tensor([1, 2])).shape)
print(torch.atleast_2d(torch.tensor(5)), torch.atleast_3d(torch.ones(2, 3)).shape, torch.atleast_2d((torch.tensor(1), torch.ones(3))))
print(torch.atleast_1d(torch.tensor(1), torch.tensor(2)), torch.atleast_3d(torch.tensor(1.)).shape)
print(torch.vander(torch.tensor([1, 2, 3])), torch.vander(torch.tensor([1., 2., 3.]), N=2))
print(torch.vander(torch.tensor([2, 3]), N=4, increasing=True), torch.vander(torch.tensor([1., 2.]), N=0).shape)
print(torch.vander(torch.tensor([True, False])), torch.vander(torch.tensor([1, 2], dtype=torch.int8)).dtype)

w = torch.arange(12., requires_grad=True)
dg = w.view(3, 4).diagonal(1)
dg.sum().backward()
print(dg.grad_fn.name(), w.grad)
w.grad = None
tk = torch.take(w.view(3, 4), torch.tensor([11, 0, 0]))
tk.sum().backward()
print(tk.grad_fn.name(), w.grad)
w.grad = None
ta = torch.take_along_dim(w.view(3, 4), torch.tensor([[3], [3], [0]]), dim=1)
(ta * torch.tensor([[1.], [2.], [3.]])).sum().backward()
print(ta.grad_fn.name(), w.grad)
e = torch.tensor([1., 2., 3.], requires_grad=True)
de = torch.diag_embed(e, offset=1)
(de * torch.arange(16.).view(4, 4)).sum().backward()
print(de.grad_fn.name(), e.grad)
V = torch.vander(e, N=3, increasing=True)
print(V, V.requires_grad)

for bad in [lambda: b.diagonal(0, 1, 1), lambda: torch.diag_embed(torch.ones(2), dim1=0, dim2=0),
            lambda: torch.take(src, torch.tensor([6])), lambda: torch.take_along_dim(scores, torch.tensor([[0]]), dim=2),
            lambda: torch.take_along_dim(scores, torch.tensor([[0.5]]), dim=1), lambda: torch.vander(torch.ones(2, 2)),
            lambda: torch.vander(torch.ones(2), N=-1), lambda: torch.tril_indices(3, -1),
            lambda: torch.take_along_dim(scores, torch.tensor([[[0]]]), dim=1)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
