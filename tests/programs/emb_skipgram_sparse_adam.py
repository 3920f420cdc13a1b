# word2vec skip-gram with negative sampling as in popular PyTorch repos: two sparse
# nn.Embedding tables (u, v), bmm scores, logsigmoid loss, optim.SparseAdam and its state.
import torch
import torch.nn as nn
import torch.nn.functional as F

corpus = "the quick brown fox jumps over the lazy dog the fox".split()
vocab = sorted(set(corpus))
w2i = {w: i for i, w in enumerate(vocab)}
pairs = []
for i, w in enumerate(corpus):
    for j in (i - 1, i + 1):
        if 0 <= j < len(corpus):
            pairs.append((w2i[w], w2i[corpus[j]]))
pos_u = torch.tensor([p[0] for p in pairs])
pos_v = torch.tensor([p[1] for p in pairs])
neg_v = (pos_v[:, None] * 3 + torch.arange(1, 4)[None, :]) % len(vocab)
print(len(vocab), len(pairs), neg_v.shape)


class SkipGram(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.u = nn.Embedding(n, d, sparse=True)
        self.v = nn.Embedding(n, d, sparse=True)
        with torch.no_grad():
            self.u.weight.copy_(0.5 * torch.sin(torch.arange(n * d, dtype=torch.float32)).view(n, d))
            self.v.weight.zero_()

    def forward(self, pu, pv, nv):
        eu = self.u(pu)
        ev = self.v(pv)
        en = self.v(nv)
        score = F.logsigmoid(torch.clamp((eu * ev).sum(1), -10, 10))
        neg = torch.bmm(en, eu.unsqueeze(2)).squeeze(2)
        neg = F.logsigmoid(-torch.clamp(neg, -10, 10)).sum(1)
        return -(score + neg).mean()


model = SkipGram(len(vocab), 4)
opt = optim = torch.optim.SparseAdam(model.parameters(), lr=0.05)
print(opt)
for step in range(15):
    opt.zero_grad()
    loss = model(pos_u, pos_v, neg_v)
    loss.backward()
    if step == 0:
        g = model.v.weight.grad
        print(g.is_sparse, g._nnz(), g.coalesce()._nnz())
        print(model.u.weight.grad.coalesce().indices())
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}")

st = opt.state[model.u.weight]
print(sorted(st.keys()), st["step"], st["exp_avg"].layout, st["exp_avg"].shape)
print(st["exp_avg_sq"].abs().sum() > 0)
print(opt.state_dict()["param_groups"])

# SparseAdam refuses dense gradients and non-sparse-friendly inputs
dense = nn.Embedding(4, 2)
opt2 = torch.optim.SparseAdam(dense.parameters())
dense(torch.tensor([1, 2])).sum().backward()
try:
    opt2.step()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.optim.SparseAdam([{"params": [dense.weight]}], lr=-1.0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.optim.SparseAdam(model.parameters(), betas=(1.0, 0.9))
except ValueError as e:
    print(type(e).__name__, e)

emb = F.normalize(model.u.weight.detach(), dim=1)
sims = emb @ emb[w2i["fox"]]
print([vocab[i] for i in sims.topk(3).indices.tolist()])
