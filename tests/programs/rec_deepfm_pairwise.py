# DeepFM / FM for CTR prediction: field offsets into one shared embedding table, the
# 0.5*((sum v)^2 - sum v^2) pairwise trick, a deep MLP tower, BCEWithLogitsLoss(pos_weight).
import torch
import torch.nn as nn

field_dims = [3, 4, 2]
offsets = torch.tensor([0, *torch.tensor(field_dims).cumsum(0)[:-1].tolist()])
print("offsets", offsets, offsets.dtype)
X = torch.tensor([[0, 1, 0], [1, 3, 1], [2, 0, 1], [0, 2, 0], [1, 1, 1], [2, 3, 0], [0, 0, 1], [2, 2, 0]])
y = torch.tensor([1., 0., 1., 0., 0., 1., 1., 0.])


class DeepFM(nn.Module):
    def __init__(self, field_dims, k=4, hidden=8):
        super().__init__()
        n = sum(field_dims)
        self.linear = nn.Embedding(n, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.embed = nn.Embedding(n, k)
        self.mlp = nn.Sequential(nn.Linear(len(field_dims) * k, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, 1))

    def forward(self, x):
        x = x + offsets.unsqueeze(0)
        lin = self.linear(x).sum(dim=1) + self.bias
        v = self.embed(x)
        square_of_sum = v.sum(dim=1) ** 2
        sum_of_square = (v ** 2).sum(dim=1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(dim=1, keepdim=True)
        deep = self.mlp(v.flatten(start_dim=1))
        return (lin + fm + deep).squeeze(1)


model = DeepFM(field_dims)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))
model.eval()
v = model.embed(X + offsets)
# the trick equals the explicit sum over pairs
explicit = sum((v[:, a] * v[:, b]).sum(-1) for a in range(3) for b in range(a + 1, 3))
trick = 0.5 * (v.sum(1).pow(2) - v.pow(2).sum(1)).sum(1)
print(torch.allclose(explicit, trick, atol=1e-6), trick.shape)
ii, jj = torch.triu_indices(3, 3, offset=1)
print(ii, jj, (v[:, ii] * v[:, jj]).sum(-1).shape)
print(model(X).detach().round(decimals=4))

pos_weight = (y == 0).sum() / (y == 1).sum()
loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight.reshape(1))
print(loss_fn, pos_weight)
model.train()
model.mlp[2].p = 0.0
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
for step in range(20):
    logits = model(X)
    loss = loss_fn(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    prob = torch.sigmoid(model(X))
print((prob > 0.5).float(), ((prob > 0.5).float() == y).float().mean())
print(nn.functional.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor([2.0]), reduction="none").shape)
print(sorted(model.state_dict().keys()))
