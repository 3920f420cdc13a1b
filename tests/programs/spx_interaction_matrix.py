# A user-item interaction matrix for collaborative filtering kept sparse: built from (user, item)
# logs with duplicate clicks, coalesced into counts, binarised, normalised, item-item
# co-occurrence via sparse @ dense, and top-k recommendations.
import torch

log_users = torch.tensor([0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 0, 1, 4, 4])
log_items = torch.tensor([1, 3, 0, 1, 1, 2, 4, 1, 3, 3, 1, 2, 0, 4])
n_users, n_items = 5, 5
clicks = torch.sparse_coo_tensor(torch.stack([log_users, log_items]),
                                 torch.ones(len(log_users)), (n_users, n_items))
print(clicks.is_coalesced(), clicks._nnz())
counts = clicks.coalesce()
print(counts)
binary = torch.sparse_coo_tensor(counts.indices(), torch.ones_like(counts.values()),
                                 counts.shape)
print(binary.to_dense())

# popularity and activity
print("item popularity", torch.sparse.sum(binary, dim=0).to_dense().tolist())
print("user activity", torch.sparse.sum(counts, dim=1).to_dense().tolist())

# item-item co-occurrence R^T R (sparse^T @ dense)
R_dense = binary.to_dense()
co = torch.sparse.mm(binary.t(), R_dense)
print(co)
co.fill_diagonal_(0)
# score = R @ co, mask seen items, top-2
scores = torch.sparse.mm(binary, co)
scores = scores - 100 * R_dense
top = scores.topk(2, dim=1)
print(top.indices.tolist())

# tf-idf like reweighting of the stored values
idf = torch.log(n_users / (1 + torch.sparse.sum(binary, dim=0).to_dense()))
u, it = counts.indices()
tfidf = torch.sparse_coo_tensor(counts.indices(), counts.values() * idf[it], counts.shape)
print(tfidf.coalesce().values())
print((tfidf * 2).to_dense()[1])

# negative sampling from the complement of the sparse pattern
seen = set(zip(u.tolist(), it.tolist()))
negatives = [(a, b) for a in range(n_users) for b in range(n_items) if (a, b) not in seen][:6]
print(negatives)
print(torch.sparse_coo_tensor(torch.tensor(negatives).t(), torch.zeros(6), (5, 5)).coalesce().indices())
