# Graph attention on a sparse adjacency (a GAT layer without torch_geometric): edge scores become
# the values of torch.sparse_coo_tensor, torch.sparse.softmax normalizes them per row, and
# torch.sparse.mm aggregates neighbours; trained a few steps with Adam on a tiny graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

n = 8
ring = [(i, (i + 1) % n) for i in range(n)]
edges = ring + [(b, a) for a, b in ring] + [(i, i) for i in range(n)] + [(0, 4), (4, 0)]
edge_index = torch.tensor(edges, dtype=torch.long).t()
x = torch.stack([torch.cos(torch.arange(n) * 0.9 + k) for k in range(4)], dim=1)
y = torch.tensor([0, 0, 1, 1, 0, 0, 1, 1])


class SparseGATLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.W = nn.Linear(in_dim, out_dim, bias=False)
        self.a_src = nn.Parameter(torch.empty(out_dim))
        self.a_dst = nn.Parameter(torch.empty(out_dim))
        with torch.no_grad():
            self.W.weight.copy_(torch.sin(torch.arange(in_dim * out_dim) * 0.37).view(out_dim, in_dim))
            self.a_src.copy_(torch.linspace(-0.5, 0.5, out_dim))
            self.a_dst.copy_(torch.linspace(0.4, -0.4, out_dim))

    def forward(self, h, edge_index):
        wh = self.W(h)
        src, dst = edge_index
        scores = F.leaky_relu((wh[dst] * self.a_dst).sum(1) + (wh[src] * self.a_src).sum(1), 0.2)
        att = torch.sparse_coo_tensor(torch.stack([dst, src]), scores, (h.shape[0], h.shape[0]))
        alpha = torch.sparse.softmax(att, dim=1)
        return torch.sparse.mm(alpha, wh), alpha


layer1 = SparseGATLayer(4, 6)
layer2 = SparseGATLayer(6, 2)
h1, alpha = layer1(x, edge_index)
print(alpha.is_sparse, alpha.is_coalesced(), alpha._nnz(), type(alpha.grad_fn).__name__)
print(torch.sparse.sum(alpha, dim=1).to_dense())
print(alpha.to_dense()[0])
print(type(h1.grad_fn).__name__)

params = list(layer1.parameters()) + list(layer2.parameters())
opt = torch.optim.Adam(params, lr=0.05)
for step in range(25):
    opt.zero_grad()
    h, _ = layer1(x, edge_index)
    out, _ = layer2(F.elu(h), edge_index)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}", f"{layer1.a_src.grad.norm().item():.4f}")
with torch.no_grad():
    h, _ = layer1(x, edge_index)
    out, alpha = layer2(F.elu(h), edge_index)
print("pred:", out.argmax(1).tolist(), "acc:", (out.argmax(1) == y).float().mean().item())
print(alpha.values()[:6])
