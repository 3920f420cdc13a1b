# Learnable edge weights on a fixed sparsity pattern: an nn.Parameter holding the nonzeros,
# a sparse operator rebuilt each step with torch.sparse_coo_tensor, propagation with
# torch.sparse.mm, Adam on the weights, and gradients checked against the dense formulation.
import torch
import torch.nn as nn

idx = torch.tensor([[0, 0, 1, 2, 2, 3, 3, 4],
                    [1, 3, 2, 0, 4, 1, 4, 0]])
N = 5


class EdgeConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.edge_logit = nn.Parameter(torch.linspace(-0.5, 0.5, idx.shape[1]))
        self.proj = nn.Linear(2, 2)

    def forward(self, x):
        w = torch.sigmoid(self.edge_logit)
        adj = torch.sparse_coo_tensor(idx, w, (N, N))
        return torch.sparse.mm(adj, self.proj(x)) + x


model = EdgeConv()
with torch.no_grad():
    model.proj.weight.copy_(torch.tensor([[0.5, -0.25], [0.125, 0.75]]))
    model.proj.bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.stack([torch.cos(torch.arange(N) * 0.9), torch.sin(torch.arange(N) * 0.4)], 1)
target = torch.stack([torch.arange(N) * 0.2, 1 - torch.arange(N) * 0.1], 1)

out = model(x)
loss = ((out - target) ** 2).mean()
loss.backward()
g_sparse = model.edge_logit.grad.clone()

# the same computation written densely
w = torch.sigmoid(model.edge_logit.detach()).requires_grad_()
dense_adj = torch.zeros(N, N).index_put((idx[0], idx[1]), w)
dense_out = dense_adj @ model.proj(x).detach() + x
((dense_out - target) ** 2).mean().backward()
print(torch.allclose(g_sparse, w.grad * torch.sigmoid(model.edge_logit.detach()) *
                     (1 - torch.sigmoid(model.edge_logit.detach())), atol=1e-6))
print(f"{loss.item():.5f}", [round(g, 4) for g in g_sparse.tolist()])

opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(25):
    opt.zero_grad()
    loss = ((model(x) - target) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}")
print([round(v, 3) for v in torch.sigmoid(model.edge_logit).tolist()])

# a sparse leaf with requires_grad: its .grad is sparse with the same pattern
A = torch.sparse_coo_tensor(idx, torch.ones(idx.shape[1]), (N, N)).coalesce().requires_grad_()
y = torch.sparse.mm(A, x)
y.pow(2).sum().backward()
print(A.grad.layout, A.grad._nnz(), A.grad.coalesce().values())
print(A.grad_fn, A.is_leaf)
