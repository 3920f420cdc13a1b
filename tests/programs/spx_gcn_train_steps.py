# A two-layer GCN (Kipf & Welling) with the normalised adjacency D^-1/2 (A+I) D^-1/2 kept as a
# sparse COO tensor, node classification trained with Adam for a few dozen steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (5, 6), (6, 7), (7, 4)]
N = 8
src = [a for a, b in edges] + [b for a, b in edges] + list(range(N))
dst = [b for a, b in edges] + [a for a, b in edges] + list(range(N))
A = torch.sparse_coo_tensor(torch.tensor([src, dst]), torch.ones(len(src)), (N, N)).coalesce()
deg = torch.sparse.sum(A, dim=1).to_dense()
dinv = deg.pow(-0.5)
r, c = A.indices()
A_hat = torch.sparse_coo_tensor(A.indices(), dinv[r] * A.values() * dinv[c], (N, N))
print(A_hat._nnz(), deg.tolist())
print(A_hat.coalesce().values()[:6])


class GCNLayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.lin = nn.Linear(fin, fout, bias=False)
        self.bias = nn.Parameter(torch.zeros(fout))

    def forward(self, x, adj):
        return torch.sparse.mm(adj, self.lin(x)) + self.bias


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = GCNLayer(4, 8)
        self.l2 = GCNLayer(8, 2)

    def forward(self, x, adj):
        return self.l2(F.relu(self.l1(x, adj)), adj)


model = GCN()
with torch.no_grad():
    for k, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + k).view_as(p) * 0.5)
x = torch.stack([torch.sin(torch.arange(N) * 0.5 + j) for j in range(4)], dim=1)
y = torch.tensor([0, 0, 0, 1, 1, 1, 1, 1])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(30):
    opt.zero_grad()
    out = model(x, A_hat)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        acc = (out.argmax(1) == y).float().mean()
        print(f"epoch {epoch:2d} loss {loss.item():.4f} acc {acc.item():.2f}")
print(model.l1.lin.weight.grad.shape, model.l2.bias.grad)
print(list(model.state_dict().keys()))
with torch.no_grad():
    print(model(x, A_hat).argmax(1).tolist())
