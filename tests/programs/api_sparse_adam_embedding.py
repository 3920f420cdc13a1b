# Recommender-style embedding training with nn.Embedding(sparse=True) and torch.optim.SparseAdam for
# the table (dense Adam for the rest), as the SparseAdam docs and PyTorch's word2vec examples do;
# the sparse gradient, lazily updated rows, and the dense-gradient error.
import torch
import torch.nn as nn

emb = nn.Embedding(6, 3, sparse=True)
head = nn.Linear(3, 1)
with torch.no_grad():
    emb.weight.copy_(torch.linspace(-1, 1, 18).view(6, 3))
    head.weight.copy_(torch.tensor([[0.5, -0.25, 0.75]]))
    head.bias.zero_()

users = torch.tensor([0, 2, 2, 4])
target = torch.tensor([[1.0], [0.0], [0.5], [-1.0]])
sparse_opt = torch.optim.SparseAdam(list(emb.parameters()), lr=0.1)
dense_opt = torch.optim.Adam(head.parameters(), lr=0.1)
print(sparse_opt)

for step in range(8):
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    loss = ((head(emb(users)) - target) ** 2).mean()
    loss.backward()
    if step == 0:
        g = emb.weight.grad
        print(g.is_sparse, g.layout, g._nnz())
        print(g.coalesce())
    sparse_opt.step()
    dense_opt.step()
    print(f"step {step} loss {loss.item():.4f}")

print(emb.weight)  # rows 1, 3, 5 were never looked up: unchanged
print(sparse_opt.state[emb.weight]["step"], sparse_opt.state_dict()["param_groups"][0]["betas"])

bad = nn.Embedding(4, 2)
opt = torch.optim.SparseAdam(bad.parameters())
bad(torch.tensor([1])).sum().backward()
try:
    opt.step()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.optim.SparseAdam([nn.Parameter(torch.ones(2))], lr=-1)
except ValueError as e:
    print("ValueError:", e)
