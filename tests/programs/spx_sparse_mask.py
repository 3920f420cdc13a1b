# sparse_mask: keep a dense tensor's entries only where a sparse pattern has them (pruning
# masks, sampled dense-dense products), with gradients that flow only into the kept entries.
import torch

pattern = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2, 2], [1, 0, 0, 3]]),
                                  torch.ones(4), (3, 4)).coalesce()
dense = torch.arange(12.0).view(3, 4) / 4
masked = dense.sparse_mask(pattern)
print(masked)
print(masked.is_coalesced(), masked.to_dense())

# sampled product: (U @ V.T) only at the observed pairs
U = torch.linspace(-1, 1, 6).view(3, 2).requires_grad_()
V = torch.linspace(0.5, 2, 8).view(4, 2).requires_grad_()
scores = (U @ V.t()).sparse_mask(pattern)
print(scores.grad_fn is not None, scores.requires_grad)
loss = torch.sparse.sum(scores)
loss.backward()
print(f"loss {loss.item():.4f}")
print(U.grad)
print(V.grad)

# a 0/1 pruning mask applied to a weight, the mask built with to_sparse
w = torch.tensor([[0.5, -0.1, 0.0, 2.0], [0.05, 1.0, -3.0, 0.2]])
keep = (w.abs() > 0.15).float().to_sparse()
print(keep._nnz(), keep.indices())
pruned = w.sparse_mask(keep)
print(pruned.values())
print(pruned.to_dense())

# masks and hybrid sparse tensors
h = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.ones(2, 3), (4, 3)).coalesce()
print(torch.arange(12.0).view(4, 3).sparse_mask(h))
