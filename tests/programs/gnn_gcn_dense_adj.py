# GCN from the Kipf & Welling formula with a dense adjacency matrix: A_hat = D^-1/2 (A + I) D^-1/2,
# H' = relu(A_hat @ H @ W). Adjacency built with adj[edge_index[0], edge_index[1]] = 1.
import torch
import torch.nn as nn
import torch.nn.functional as F

edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4],
                           [1, 0, 2, 1, 3, 2, 4, 3]])
N = 5
adj = torch.zeros(N, N)
adj[edge_index[0], edge_index[1]] = 1
print(adj, adj.dtype)
print(torch.equal(adj, adj.T), adj.sum(1))
adj_b = torch.zeros(N, N, dtype=torch.bool)
adj_b[edge_index[0], edge_index[1]] = True
print(adj_b.sum(), adj_b.nonzero().t().equal(edge_index))
print(adj.nonzero(as_tuple=True))

A = adj + torch.eye(N)
deg = A.sum(dim=1)
D_inv_sqrt = torch.diag(deg.pow(-0.5))
A_hat = D_inv_sqrt @ A @ D_inv_sqrt
print(A_hat)
A_hat2 = deg.pow(-0.5).view(-1, 1) * A * deg.pow(-0.5).view(1, -1)
print(torch.allclose(A_hat, A_hat2), (A_hat - A_hat2).abs().max() < 1e-6)

class GCNLayer(nn.Module):
    def __init__(self, in_f, out_f):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_f, out_f))
        self.bias = nn.Parameter(torch.zeros(out_f))
        with torch.no_grad():
            self.weight.copy_(torch.linspace(-0.5, 0.5, in_f * out_f).view(in_f, out_f))

    def forward(self, x, a_hat):
        return a_hat @ (x @ self.weight) + self.bias

    def extra_repr(self):
        return f"in={self.weight.shape[0]}, out={self.weight.shape[1]}"

class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNLayer(3, 4)
        self.conv2 = GCNLayer(4, 2)

    def forward(self, x, a_hat):
        h = F.relu(self.conv1(x, a_hat))
        h = F.dropout(h, p=0.5, training=self.training)
        return self.conv2(h, a_hat)

model = GCN()
print(model)
x = torch.arange(15.).view(N, 3) / 10
model.eval()
out = model(x, A_hat)
print(out, out.grad_fn.name())
print(F.log_softmax(out, dim=1))
y = torch.tensor([0, 0, 1, 1, 1])
loss = F.cross_entropy(out, y)
loss.backward()
print(loss)
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.grad)

# same propagation with a batch of 2 graphs stacked: torch.matmul broadcasting
A_batch = torch.stack([A_hat, torch.eye(N)])
xb = x.expand(2, N, 3)
print(torch.matmul(A_batch, xb).shape, torch.bmm(A_batch, xb)[1].equal(x))
print((A_hat @ x).sum(0), torch.mm(A_hat, x).sum(0))
print(torch.linalg.matrix_power(adj, 2)[0], adj.matrix_power(3).diagonal())

# edges as a Python list of tuples (e.g. from networkx): the list-of-sequences index idiom
edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]
ring = torch.zeros(N, N)
ring[list(zip(*edges))] = 1
print(ring, ring.sum())
print(A_hat[list(zip(*edges))])
print(adj[[edge_index[0], edge_index[1]]])
print(adj[[[0, 1], [1, 2]]])
