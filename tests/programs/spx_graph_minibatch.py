# Mini-batching small graphs the PyG way by hand: adjacency matrices concatenated block-diagonally
# with torch.cat of shifted sparse tensors, per-graph readout with a sparse assignment matrix,
# node sampling with index_select, elementwise sqrt/abs on sparse weights, a short training run.
import torch
import torch.nn as nn
import torch.nn.functional as F

graphs = [
    ([(0, 1), (1, 2), (2, 0)], 3),
    ([(0, 1), (1, 2), (2, 3)], 4),
    ([(0, 1), (0, 2), (0, 3), (0, 4)], 5),
]


def adjacency(edges, n, offset=0):
    src = torch.tensor([a for a, b in edges] + [b for a, b in edges]) + offset
    dst = torch.tensor([b for a, b in edges] + [a for a, b in edges]) + offset
    return torch.stack([src, dst])


# block-diagonal batch built from shifted edge indices, and the same via torch.cat of pieces
sizes = [n for _, n in graphs]
total = sum(sizes)
offsets = torch.tensor([0] + sizes[:-1]).cumsum(0).tolist()
edge_index = torch.cat([adjacency(e, n, o) for (e, n), o in zip(graphs, offsets)], dim=1)
weights = torch.linspace(0.5, 4.0, edge_index.shape[1])
A = torch.sparse_coo_tensor(edge_index, weights, (total, total)).coalesce()
print(A.shape, A._nnz())

rows = [torch.sparse_coo_tensor(adjacency(e, n), torch.ones(2 * len(e)), (n, n)) for e, n in graphs]
wide = torch.cat([torch.cat([r, torch.sparse_coo_tensor(size=(r.shape[0], total - r.shape[1]))], 1)
                  for r in rows[:1]], 0)
print(wide.shape, wide._nnz(), wide.is_coalesced())
stacked = torch.stack([rows[0], rows[0] * 2])
print(stacked.shape, torch.sparse.sum(stacked, dim=(1, 2)).to_dense())

# symmetric normalisation with sparse elementwise ops
A_sym = ((A + A.t()) * 0.5).coalesce()
deg = torch.sparse.sum(A_sym, dim=1).to_dense()
inv_sqrt = deg.pow(-0.5)
r, c = A_sym.indices()
A_norm = torch.sparse_coo_tensor(A_sym.indices(), A_sym.values() * inv_sqrt[r] * inv_sqrt[c],
                                 A_sym.shape)
print(torch.sqrt(A_norm).coalesce().values()[:4])
print(torch.abs(A_norm - A_norm * 2).coalesce().values()[:4])

# assignment matrix graph <- node for mean readout
batch = torch.cat([torch.full((n,), g) for g, n in enumerate(sizes)])
assign = torch.sparse_coo_tensor(torch.stack([batch, torch.arange(total)]),
                                 torch.ones(total), (len(graphs), total))
counts = torch.sparse.sum(assign, dim=1).to_dense()
print(batch.tolist(), counts.tolist())

# sample a node subset and its induced adjacency
keep = torch.tensor([0, 2, 3, 5, 8])
sub = A_norm.index_select(0, keep).index_select(1, keep)
print(sub.shape, sub.coalesce().indices().tolist())


class GraphClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(2, 8)
        self.lin2 = nn.Linear(8, 2)

    def forward(self, x, adj, assign, counts):
        h = F.relu(torch.sparse.mm(adj, self.lin1(x)))
        pooled = torch.sparse.mm(assign, h) / counts.unsqueeze(1)
        return self.lin2(pooled)


model = GraphClassifier()
with torch.no_grad():
    for k, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + k).view_as(p) * 0.4)
x = torch.stack([deg, torch.cos(torch.arange(total, dtype=torch.float32))], 1)
y = torch.tensor([0, 1, 1])
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
for step in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(model(x, A_norm, assign, counts), y)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}")
print(model(x, A_norm, assign, counts).argmax(1).tolist())
