# Matrix factorization recommender as in tutorials: user/item nn.Embedding with biases,
# MSE on explicit ratings, weight decay on embeddings, deterministic init via copy_.
import torch
import torch.nn as nn

users = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 2])
items = torch.tensor([0, 1, 1, 2, 0, 3, 2, 4, 1, 4, 3, 4])
ratings = torch.tensor([5., 3., 4., 2., 1., 5., 3., 4., 2., 5., 1., 3.])


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=4):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.global_bias = nn.Parameter(torch.tensor(ratings.mean().item()))

    def forward(self, u, i):
        dot = (self.user_emb(u) * self.item_emb(i)).sum(dim=1)
        return dot + self.user_bias(u).squeeze(-1) + self.item_bias(i).squeeze(-1) + self.global_bias


model = MF(5, 5)
with torch.no_grad():
    for name, p in model.named_parameters():
        if p.dim() == 2:
            n = p.numel()
            p.copy_(0.1 * torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + len(name)).view_as(p))
print(model)
print([(k, tuple(v.shape)) for k, v in model.state_dict().items()])
print(model.user_emb.weight[:2])
print(model.user_emb(torch.tensor([[0, 1], [2, 3]])).shape)

opt = torch.optim.SGD([
    {"params": [model.user_emb.weight, model.item_emb.weight], "weight_decay": 1e-3},
    {"params": [model.user_bias.weight, model.item_bias.weight, model.global_bias], "weight_decay": 0.0},
], lr=0.05)
loss_fn = nn.MSELoss()
for epoch in range(30):
    opt.zero_grad()
    pred = model(users, items)
    loss = loss_fn(pred, ratings)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        rmse = torch.sqrt(loss.detach())
        print(f"epoch {epoch:2d} loss {loss.item():.4f} rmse {rmse.item():.4f}")

print(model.user_emb.weight.grad.shape, model.global_bias.grad)
g = model.item_emb.weight.grad
print("rows with grad:", (g.abs().sum(1) > 0).nonzero().flatten().tolist())
with torch.no_grad():
    full = model.user_emb.weight @ model.item_emb.weight.T
    full = full + model.user_bias.weight + model.item_bias.weight.T + model.global_bias
    print(full.round(decimals=2))
    print(full.argmax(dim=1), full.shape)
try:
    model.user_emb(torch.tensor([5]))
except IndexError as e:
    print(type(e).__name__, e)
try:
    model.user_emb(torch.tensor([0.5]))
except RuntimeError as e:
    print(type(e).__name__, str(e)[:80])
