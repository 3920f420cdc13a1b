# Classic graph algorithms written with tensor ops, as in "graph analytics in PyTorch" posts:
# PageRank by power iteration with scatter_add_, connected components by min-label propagation
# with scatter_reduce("amin"), BFS hop distances, triangle counting, and the graph Laplacian.
import torch

edge_index = torch.tensor([[0, 1, 1, 2, 2, 0, 3, 4, 5, 6],
                           [1, 0, 2, 1, 0, 2, 4, 3, 6, 5]])
N = 8  # node 7 is isolated
src, dst = edge_index

# PageRank (directed edges, uniform teleport, dangling nodes spread uniformly)
out_deg = torch.bincount(src, minlength=N).float()
pr = torch.full((N,), 1.0 / N)
alpha = 0.85
for it in range(50):
    contrib = pr[src] / out_deg[src]
    new = torch.zeros(N).scatter_add_(0, dst, contrib)
    dangling = pr[out_deg == 0].sum()
    new = (1 - alpha) / N + alpha * (new + dangling / N)
    delta = (new - pr).abs().sum()
    pr = new
    if delta < 1e-6:
        break
print(it, pr, pr.sum())
print(torch.argsort(pr, descending=True, stable=True), pr.topk(3).indices)

# connected components: every node takes the min label among itself and its neighbours
label = torch.arange(N)
for step in range(N):
    nbr_min = label.clone().scatter_reduce(0, dst, label[src], reduce="amin", include_self=True)
    if torch.equal(nbr_min, label):
        break
    label = nbr_min
print(step, label)
comp, comp_id, comp_size = torch.unique(label, return_inverse=True, return_counts=True)
print(comp, comp_id, comp_size, comp_size.max().item())
print(torch.sort(comp_size, descending=True, stable=True))

# BFS hop distance from node 0 with a frontier mask
dist = torch.full((N,), -1, dtype=torch.long)
dist[0] = 0
frontier = torch.zeros(N, dtype=torch.bool)
frontier[0] = True
hop = 0
while frontier.any():
    hop += 1
    reached = torch.zeros(N, dtype=torch.bool)
    reached[dst[frontier[src]]] = True
    frontier = reached & (dist < 0)
    dist[frontier] = hop
print(dist, (dist >= 0).sum().item(), hop)
print(torch.where(dist < 0, torch.tensor(float("inf")), dist.float()))

# dense views: triangles, Laplacian, spectrum
A = torch.zeros(N, N)
A[src, dst] = 1.0
print(torch.trace(A @ A @ A) / 6, torch.diagonal(torch.linalg.matrix_power(A, 3)) / 2)
D = torch.diag(A.sum(1))
L = D - A
print(L[:3, :3], L.sum(1))
evals = torch.linalg.eigvalsh(L)
print(evals.clamp(min=0).round(decimals=4))
print((evals.abs() < 1e-5).sum().item(), "components from the Laplacian")
dinv = A.sum(1).pow(-0.5)
dinv = torch.where(torch.isinf(dinv), torch.zeros_like(dinv), dinv)
L_sym = torch.eye(N) - dinv[:, None] * A * dinv[None, :]
print(torch.linalg.eigvalsh(L_sym).clamp(min=0).round(decimals=4))
print(torch.count_nonzero(A, dim=1), A.sum() / 2, (A == A.T).all())
print(torch.linalg.eigvalsh(L_sym)[-1].item() <= 2.0 + 1e-5, L_sym.shape)
