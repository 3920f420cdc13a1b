# Converting edge_index (COO) to CSR by hand: argsort by source with stable=True, rowptr from
# bincount + cumsum, neighbor lookup with searchsorted / repeat_interleave, and a GraphSAGE mean
# aggregator over the sampled neighbors.
import torch
import torch.nn as nn

edge_index = torch.tensor([[2, 0, 1, 2, 0, 3, 1, 3],
                           [0, 1, 2, 3, 2, 1, 0, 0]])
N = 5
row, col = edge_index
perm = torch.argsort(row, stable=True)
print(perm)
row_s, col_s = row[perm], col[perm]
print(row_s, col_s)
vals, idx = torch.sort(row * N + col)
print(vals, idx, torch.sort(row, stable=True).indices.equal(perm))
counts = torch.bincount(row, minlength=N)
rowptr = torch.zeros(N + 1, dtype=torch.long)
rowptr[1:] = torch.cumsum(counts, dim=0)
print(counts, rowptr)
rowptr2 = torch.searchsorted(row_s, torch.arange(N + 1))
print(rowptr2, rowptr2.dtype, torch.equal(rowptr, rowptr2))
print(torch.searchsorted(row_s, torch.arange(N + 1), out_int32=True))
print(torch.searchsorted(row, torch.arange(N), sorter=perm))
print(torch.searchsorted(row_s, torch.tensor([1, 2]), side="right"))

for v in range(N):
    nbrs = col_s[rowptr[v]:rowptr[v + 1]]
    print(v, nbrs.tolist(), nbrs.numel())

# back from CSR to COO
row_back = torch.repeat_interleave(torch.arange(N), rowptr.diff())
print(row_back, torch.equal(row_back, row_s))
print(torch.arange(N).repeat_interleave(counts, output_size=int(counts.sum())))

# "sample" the first k neighbors of a batch of seed nodes, deterministically
seeds = torch.tensor([0, 3, 4])
k = 2
deg = (rowptr[1:] - rowptr[:-1])[seeds]
take = deg.clamp(max=k)
print(deg, take)
starts = rowptr[seeds]
offsets = torch.arange(int(take.sum())) - torch.repeat_interleave(torch.cumsum(take, 0) - take, take)
sampled = col_s[torch.repeat_interleave(starts, take) + offsets]
seed_of = torch.repeat_interleave(torch.arange(len(seeds)), take)
print(offsets, sampled, seed_of)

# relabel the sampled subgraph to local ids with unique(return_inverse)
n_id, inv = torch.unique(torch.cat([seeds, sampled]), return_inverse=True)
print(n_id, inv, inv[:len(seeds)], inv[len(seeds):])

class SAGEMean(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.lin_l = nn.Linear(c_in, c_out)
        self.lin_r = nn.Linear(c_in, c_out, bias=False)
        with torch.no_grad():
            self.lin_l.weight.copy_(torch.tensor([[0.5, -1.0], [1.0, 0.25]]))
            self.lin_l.bias.fill_(0.1)
            self.lin_r.weight.copy_(torch.tensor([[1.0, 0.0], [-0.5, 0.5]]))

    def forward(self, x_all, seeds, sampled, seed_of):
        agg = torch.zeros(len(seeds), x_all.size(1)).index_add_(0, seed_of, x_all[sampled])
        cnt = torch.bincount(seed_of, minlength=len(seeds)).clamp(min=1).unsqueeze(1)
        return self.lin_l(agg / cnt) + self.lin_r(x_all[seeds])

x = torch.arange(10.).view(N, 2).requires_grad_()
sage = SAGEMean(2, 2)
h = sage(x, seeds, sampled, seed_of)
print(h)
h.sum().backward()
print(x.grad, sage.lin_l.weight.grad)
print(nn.functional.normalize(h, p=2., dim=-1))
