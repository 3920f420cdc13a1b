# Recommender-style nn.Embedding(sparse=True): sparse gradients, optim.SparseAdam for the
# embeddings and SGD for the dense part, inspecting the sparse grad and which rows changed.
import torch
import torch.nn as nn


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim, sparse=True)
        self.item = nn.Embedding(n_items, dim, sparse=True)
        self.out = nn.Linear(1, 1)

    def forward(self, u, i):
        dot = (self.user(u) * self.item(i)).sum(1, keepdim=True)
        return self.out(dot).squeeze(1)


model = MF(6, 5, 3)
with torch.no_grad():
    model.user.weight.copy_(torch.sin(torch.arange(18.0)).view(6, 3) * 0.5)
    model.item.weight.copy_(torch.cos(torch.arange(15.0)).view(5, 3) * 0.5)
    model.out.weight.fill_(1.0)
    model.out.bias.fill_(0.0)

users = torch.tensor([0, 1, 1, 3, 4, 0])
items = torch.tensor([2, 0, 2, 4, 1, 2])
ratings = torch.tensor([1.0, 0.0, 0.5, 1.0, 0.0, 1.0])

pred = model(users, items)
loss = ((pred - ratings) ** 2).mean()
loss.backward()
g = model.user.weight.grad
print(g.is_sparse, g.layout, g.shape, g._nnz())
print(g)
print(g.coalesce().indices())
print(model.out.weight.grad)

sparse_params = [model.user.weight, model.item.weight]
dense_params = list(model.out.parameters())
opt_sparse = torch.optim.SparseAdam(sparse_params, lr=0.05)
opt_dense = torch.optim.SGD(dense_params, lr=0.05)
before = model.user.weight.detach().clone()
for step in range(20):
    opt_sparse.zero_grad()
    opt_dense.zero_grad()
    loss = ((model(users, items) - ratings) ** 2).mean()
    loss.backward()
    opt_sparse.step()
    opt_dense.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}")
changed = (model.user.weight.detach() - before).abs().sum(1) > 0
print("changed user rows", changed.nonzero().flatten().tolist())
print(sorted(opt_sparse.state[model.user.weight].keys()))
print(opt_sparse.state[model.user.weight]["exp_avg"].shape)

# dense optimizers that refuse sparse gradients
try:
    torch.optim.Adam(sparse_params, lr=0.1).step()
    print("Adam ok")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    ((model(users, items) - ratings) ** 2).mean().backward()
    torch.optim.SparseAdam(dense_params).step()
except Exception as e:
    print(type(e).__name__, e)
