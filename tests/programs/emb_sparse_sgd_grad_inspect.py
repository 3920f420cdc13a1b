# nn.Embedding(sparse=True) with plain SGD: printing the uncoalesced sparse gradient, its
# coalesced indices/values, accumulation over two backward calls, and what SGD updates.
import torch
import torch.nn as nn

emb = nn.Embedding(8, 3, sparse=True, padding_idx=7)
with torch.no_grad():
    emb.weight.copy_(torch.cos(torch.arange(24.0)).view(8, 3))
    emb.weight[7].zero_()
print(emb)
print(emb.weight[7])

batch = torch.tensor([[4, 1, 4, 7], [2, 4, 7, 7]])
out = emb(batch)
loss = out.sum(dim=1).pow(2).mean()
loss.backward()
g = emb.weight.grad
print(type(g).__name__, g.layout, g.is_sparse, g.dtype, g.shape)
print(g.is_coalesced(), g._nnz(), g.sparse_dim(), g.dense_dim())
print(g._indices())
print(g._values().shape)
c = g.coalesce()
print(c.is_coalesced(), c._nnz())
print(c.indices())
print(c.values())
print(c.to_dense()[7])

# second backward accumulates into the sparse grad
emb(torch.tensor([0, 4])).sum().backward()
g2 = emb.weight.grad
print(g2._nnz(), g2.coalesce()._nnz())
print(g2.coalesce().indices().tolist())

opt = torch.optim.SGD(emb.parameters(), lr=0.1)
before = emb.weight.detach().clone()
opt.step()
moved = (emb.weight.detach() != before).any(dim=1)
print("moved:", moved.nonzero().flatten().tolist())
print(emb.weight[4])

opt.zero_grad()
print(emb.weight.grad)

# dense grad for comparison
dense = nn.Embedding(8, 3, padding_idx=7)
with torch.no_grad():
    dense.weight.copy_(before)
dense(batch).sum(dim=1).pow(2).mean().backward()
print(torch.allclose(dense.weight.grad, c.to_dense()))
print(dense.weight.grad.layout)

# a few sparse-tensor operations users apply to the grad
s = c * 2.0
print(s.coalesce().values()[0])
print(torch.sparse.sum(c, dim=0))
print(c.to_dense().abs().sum().item() > 0)
