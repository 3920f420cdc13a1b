# Hand-written graph preprocessing, PyG-style but without torch_geometric: edge_index of shape
# [2, E], making it undirected, adding / removing self loops, coalescing duplicates, degrees via
# bincount and scatter_add_, and the symmetric normalization deg^-1/2 with inf handling.
import torch

edge_index = torch.tensor([[0, 1, 1, 2, 3, 0],
                           [1, 0, 2, 1, 0, 1]])
num_nodes = 5  # node 4 is isolated
print(edge_index.shape, edge_index.dtype, edge_index.size(1))

# to_undirected: add reversed edges, then drop duplicates with unique(dim=1)
rev = edge_index.flip(0)
both = torch.cat([edge_index, rev], dim=1)
undirected = torch.unique(both, dim=1)
print(undirected)
print(edge_index[[1, 0]].equal(rev), torch.stack([edge_index[1], edge_index[0]]).equal(rev))

# coalesce by a linear key row * N + col, stable sort keeps the original order of ties
key = both[0] * num_nodes + both[1]
perm = torch.sort(key, stable=True).indices
print(key, perm)
uniq_key, inv, counts = torch.unique(key, return_inverse=True, return_counts=True)
print(uniq_key, inv, counts)
coalesced = torch.stack([uniq_key // num_nodes, uniq_key % num_nodes])
print(coalesced, coalesced.equal(undirected))

# self loops
loop = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
with_loops = torch.cat([undirected, loop], dim=1)
print(loop, with_loops.shape)
is_loop = with_loops[0] == with_loops[1]
print(is_loop.sum().item(), with_loops[:, ~is_loop].shape)

# degrees, two ways
row, col = with_loops
deg = torch.bincount(col, minlength=num_nodes)
print(deg, deg.dtype)
deg2 = torch.zeros(num_nodes).scatter_add_(0, col, torch.ones(col.size(0)))
print(deg2, deg2.dtype)
deg_nl = torch.zeros(num_nodes, dtype=torch.long).scatter_add_(0, undirected[1], torch.ones_like(undirected[1]))
print(deg_nl)

# symmetric normalization with an isolated node: deg 0 -> inf -> 0
d = deg_nl.float()
dinv = d.pow(-0.5)
print(dinv)
dinv_a = dinv.masked_fill(dinv == float("inf"), 0)
dinv_b = torch.where(torch.isinf(dinv), torch.zeros_like(dinv), dinv)
dinv_c = dinv.clone()
dinv_c[dinv_c == float("inf")] = 0
print(dinv_a, torch.equal(dinv_a, dinv_b), torch.equal(dinv_b, dinv_c))
r, c = undirected
norm = dinv_a[r] * dinv_a[c]
print(norm)
print(d.rsqrt(), torch.nan_to_num(d.rsqrt(), posinf=0.0))
print((1.0 / d).masked_fill_(d == 0, 0.0), d.reciprocal())

# in-degree vs out-degree of the original directed graph
out_deg = torch.bincount(edge_index[0], minlength=num_nodes)
in_deg = torch.bincount(edge_index[1], minlength=num_nodes)
print(out_deg, in_deg, (out_deg - in_deg).abs().sum())
print(torch.bincount(edge_index[0]).shape, edge_index.max().item() + 1)
print(edge_index.t(), edge_index.t().contiguous().view(-1))

# weighted degree with edge weights; also for a graph that has no edges at all
edge_weight = torch.tensor([0.5, 1.0, 2.0, 1.0, 0.25, 1.5])
print(torch.bincount(edge_index[1], weights=edge_weight, minlength=num_nodes))
empty_ei = torch.empty(2, 0, dtype=torch.long)
empty_w = torch.empty(0)
wdeg = torch.bincount(empty_ei[1], weights=empty_w, minlength=3)
print(wdeg, wdeg.dtype)
print(torch.zeros(3).scatter_add_(0, empty_ei[1], empty_w), torch.bincount(empty_ei[1], minlength=3))
