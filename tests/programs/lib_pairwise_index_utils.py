# Index utilities from recommendation / NLP codebases: DLRM-style pairwise feature
# interactions via tril_indices, special-token filtering with isin, take_along_dim for
# beam search, unique_consecutive for run-length encoding, combinations and block_diag.
import torch
import torch.nn.functional as F

emb = torch.arange(1., 13.).view(1, 4, 3)
Z = torch.bmm(emb, emb.transpose(1, 2))
print(Z[0])
li, lj = torch.tril_indices(4, 4, offset=-1)
print(li, lj, li.dtype)
print(Z[:, li, lj])
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1))
iu = torch.triu_indices(4, 4, offset=1)
flat = Z[0][iu[0], iu[1]]
print(flat, torch.equal(flat.sort().values, Z[:, li, lj][0].sort().values))

tokens = torch.tensor([[101, 7, 8, 102, 0, 0], [101, 9, 102, 0, 0, 0]])
special = torch.tensor([0, 101, 102])
mask = ~torch.isin(tokens, special)
print(mask, mask.sum(1))
print(torch.isin(tokens, special, invert=True).equal(mask), torch.isin(torch.tensor([1, 2]), 2))

logp = torch.tensor([[-1.0, -0.5, -3.0], [-0.2, -2.0, -0.1]])
best = logp.argsort(dim=1, descending=True)[:, :2]
print(best, torch.take_along_dim(logp, best, dim=1))
print(torch.take_along_dim(logp, torch.tensor([5, 0])))
print(torch.equal(torch.take_along_dim(logp, best, 1), logp.gather(1, best)))

x = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1])
vals, counts = torch.unique_consecutive(x, return_counts=True)
print(vals, counts)
out, inv = torch.unique_consecutive(x, return_inverse=True)
print(out, inv)
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), dim=0))

print(torch.combinations(torch.tensor([1, 2, 3])))
print(torch.combinations(torch.tensor([1., 2., 3.]), r=2, with_replacement=True).shape)
print(torch.cartesian_prod(torch.tensor([0, 1]), torch.tensor([5, 6, 7])))
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5.]]), torch.tensor([[1., 2., 3.]])))

a = torch.tensor([[1.0, 0.0], [1.0, 1.0], [0.0, -2.0]], requires_grad=True)
b = torch.tensor([[2.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
cs = torch.cosine_similarity(a, b, dim=1)
print(cs, F.cosine_similarity(a, b).equal(cs))
cs.sum().backward()
print(a.grad)
print(F.pairwise_distance(a.detach(), b), torch.pairwise_distance(a.detach(), b, p=1.0))
obs = torch.tensor([[0., 1., 2.], [2., 1., 0.]])
print(torch.cov(obs), torch.corrcoef(obs))
print(torch.rot90(torch.arange(4).view(2, 2)), torch.rot90(torch.arange(4).view(2, 2), -1, [0, 1]))
print(torch.atleast_2d(torch.tensor(3.)), torch.atleast_1d(torch.tensor(3.)).shape)
