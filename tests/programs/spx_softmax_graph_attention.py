# Edge softmax for graph attention written with torch.sparse.softmax / log_softmax on a COO
# attention-score matrix, then aggregation with torch.sparse.mm and a backward pass.
import torch

src = torch.tensor([0, 0, 1, 1, 1, 2, 3, 3])
dst = torch.tensor([1, 2, 0, 2, 3, 3, 0, 2])
N = 4
edge_index = torch.stack([src, dst])
feat = torch.stack([torch.sin(torch.arange(4.0) + k) for k in range(3)], dim=1)
a = torch.tensor([0.3, -0.2, 0.5, 0.1, 0.4, -0.3], requires_grad=True)

h_src, h_dst = feat[src], feat[dst]
e = torch.nn.functional.leaky_relu(torch.cat([h_src, h_dst], dim=1) @ a, 0.2)
scores = torch.sparse_coo_tensor(edge_index, e, (N, N))
att = torch.sparse.softmax(scores, dim=1)
print(att)
print(type(att.grad_fn).__name__)
print(torch.allclose(torch.sparse.sum(att, dim=1).to_dense(), torch.ones(N)))
out = torch.sparse.mm(att, feat)
print(out)
out.sum().backward()
print(a.grad)

# column softmax, and log_softmax on a coalesced float64 copy
col = torch.sparse.softmax(scores.detach(), dim=0)
print(col.to_dense())
logp = torch.sparse.log_softmax(scores.detach().double(), dim=1)
print(logp)
print(logp.values().exp().sum())

# negative log-likelihood of the "true" neighbour of each node
target = torch.tensor([1, 3, 3, 0])
e2 = e.detach().clone().requires_grad_()
lp = torch.sparse.log_softmax(torch.sparse_coo_tensor(edge_index, e2, (N, N)), dim=1)
dense_lp = lp.to_dense()
nll = -dense_lp[torch.arange(N), target].mean()
nll.backward()
print(f"{nll.item():.4f}", e2.grad)
