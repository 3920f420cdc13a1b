# torch.sparse.sum over chosen dims of 3-d and hybrid sparse tensors (bag-of-words counts per
# document, per word), with the sparse results printed and gradients into the values.
import torch

# (doc, word, position) occurrence counts
idx = torch.tensor([[0, 0, 0, 1, 1, 2, 2, 2, 2],
                    [1, 1, 3, 0, 3, 1, 2, 2, 4],
                    [0, 2, 1, 0, 1, 0, 1, 3, 2]])
val = torch.tensor([1., 1., 2., 1., 3., 1., 1., 1., 2.])
X = torch.sparse_coo_tensor(idx, val, (3, 5, 4))
print(torch.sparse.sum(X))
per_doc = torch.sparse.sum(X, dim=(1, 2))
print(per_doc)
per_word = torch.sparse.sum(X, dim=[0, 2])
print(per_word)
doc_word = torch.sparse.sum(X, dim=2)
print(doc_word)
print(doc_word.to_dense())
print(torch.sparse.sum(X, dim=-1).shape, torch.sparse.sum(X, dim=0).is_coalesced())

# hybrid tensor: sparse over rows, a dense embedding of size 2 per row
H = torch.sparse_coo_tensor(torch.tensor([[0, 2, 2, 5]]),
                            torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.]]), (6, 2))
print(torch.sparse.sum(H, dim=0))
print(torch.sparse.sum(H))
print(H.coalesce())

# gradients through the sum
v = torch.tensor([0.5, 1.0, 1.5, 2.0], requires_grad=True)
G = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1, 2], [1, 0, 2, 2]]), v, (3, 3))
row_tot = torch.sparse.sum(G, dim=1)
print(row_tot)
loss = (row_tot.to_dense() ** 2).sum()
loss.backward()
print(loss.item(), v.grad)

# dtype argument
ints = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1]]), torch.tensor([1, 2, 3]), (2,))
print(torch.sparse.sum(ints), torch.sparse.sum(ints, dtype=torch.float64))
print(torch.sparse.sum(ints, dim=0))
