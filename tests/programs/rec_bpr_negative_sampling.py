# BPR loss by hand for implicit feedback with fixed negative indices (instead of random sampling),
# logsigmoid, L2 regularization on the looked-up rows, and Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F

n_users, n_items, dim = 4, 6, 3
pos = torch.tensor([[0, 1], [0, 2], [1, 0], [1, 3], [2, 4], [2, 5], [3, 1], [3, 5]])
neg_items = torch.tensor([3, 5, 2, 4, 0, 1, 2, 0])

user_emb = nn.Embedding(n_users, dim)
item_emb = nn.Embedding(n_items, dim)
with torch.no_grad():
    user_emb.weight.copy_(torch.linspace(-0.5, 0.5, n_users * dim).view(n_users, dim))
    item_emb.weight.copy_(torch.cos(torch.arange(n_items * dim, dtype=torch.float32)).view(n_items, dim) * 0.3)

opt = torch.optim.Adam(list(user_emb.parameters()) + list(item_emb.parameters()), lr=0.05)
u, i, j = pos[:, 0], pos[:, 1], neg_items
for step in range(25):
    eu, ei, ej = user_emb(u), item_emb(i), item_emb(j)
    x_uij = (eu * ei).sum(-1) - (eu * ej).sum(-1)
    bpr = -F.logsigmoid(x_uij).mean()
    reg = 1e-3 * (eu.norm(dim=1).pow(2) + ei.norm(dim=1).pow(2) + ej.norm(dim=1).pow(2)).mean() / 2
    loss = bpr + reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        auc = (x_uij > 0).float().mean()
        print(f"step {step:2d} bpr {bpr.item():.4f} reg {reg.item():.5f} auc {auc.item():.3f}")

print(x_uij.grad_fn.name(), bpr.grad_fn.name())
# alternative: softplus form of BPR equals -logsigmoid
x = torch.tensor([-2.0, 0.0, 3.0])
print(torch.allclose(F.softplus(-x), -F.logsigmoid(x)))
# negative sampling with fixed indices, resampling collisions with the positives
seen = torch.zeros(n_users, n_items, dtype=torch.bool)
seen[pos[:, 0], pos[:, 1]] = True
print(seen.int())
cand = torch.arange(n_items).repeat(n_users, 1)
neg_mask = ~seen
print(neg_mask.sum(1))
first_neg = torch.where(neg_mask, cand, n_items).min(dim=1)
print(first_neg)
collide = seen[u, j]
print("collisions:", collide.sum().item(), collide)
with torch.no_grad():
    scores = user_emb.weight @ item_emb.weight.T
    print(scores.shape, scores.dtype)
    print(torch.gather(scores, 1, pos[:, 1].view(-1, 1)[::2]).shape)
