# A tour of torch.sparse COO tensors as the PyTorch docs walk through it: construction, printing,
# coalescing, indices/values, transposes, scalar arithmetic, sums, conversion to and from dense.
import torch

i = torch.tensor([[0, 1, 1, 2, 0],
                  [2, 0, 2, 1, 2]])
v = torch.tensor([3.0, 4.0, 5.0, 6.0, 1.5])
s = torch.sparse_coo_tensor(i, v, (3, 3))
print(s)
print(s.is_sparse, s.layout, s.dtype, s.shape, s.size(0), s.dim(), s.numel())
print(s.sparse_dim(), s.dense_dim(), s._nnz(), s.is_coalesced())
print(s._indices())
print(s._values())
print(s.to_dense())

c = s.coalesce()
print(c)
print(c.indices(), c.values(), c.is_coalesced())
print(torch.equal(c.to_dense(), s.to_dense()))

# size inferred from the indices
print(torch.sparse_coo_tensor([[0, 1, 3]], [1, 2, 3]))
print(torch.sparse_coo_tensor(i, v).shape)

# other dtypes, empty tensors, hybrid (dense trailing) dims
d = torch.sparse_coo_tensor(i, v, (3, 3), dtype=torch.float64)
print(d)
print(d.type(), s.type(), s.long().type())
print(torch.sparse_coo_tensor(torch.empty(2, 0, dtype=torch.long), torch.empty(0), (2, 4)))
h = torch.sparse_coo_tensor([[0, 2]], torch.arange(6.0).view(2, 3), (4, 3))
print(h)
print(h.to_dense())

# transposes and arithmetic keep it sparse
print(c.t())
print(c.t().is_coalesced(), c.transpose(0, 1).to_dense())
print(c * 2)
print(0.5 * c, (c / 4).values())
print(-c)
print((c + c).values(), (c - c).to_dense().abs().sum())
print(s + c)

# sums
print(torch.sparse.sum(c))
print(torch.sparse.sum(c, dim=0))
print(torch.sparse.sum(c, dim=1).to_dense())
print(torch.sparse.sum(c, dim=(0, 1)))
print(c.sum())

# dense -> sparse
dense = torch.tensor([[0.0, 2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 7.5]])
sp = dense.to_sparse()
print(sp)
print(sp.is_coalesced(), torch.equal(sp.to_dense(), dense))
print(torch.eye(3).to_sparse().indices())

# products with dense matrices
x = torch.arange(6.0).view(3, 2)
print(torch.sparse.mm(c, x))
print(torch.spmm(c, x), torch.mm(c, x).shape)
print(c @ x)
print(torch.allclose(c @ x, c.to_dense() @ x))
print(c @ torch.ones(3))
