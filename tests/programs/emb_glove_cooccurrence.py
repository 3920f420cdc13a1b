# GloVe-style training: co-occurrence counts built in plain Python from a toy corpus, then the
# weighted least-squares loss f(X_ij) (w_i . w~_j + b_i + b~_j - log X_ij)^2 with Adagrad.
import torch
import torch.nn as nn
from collections import Counter

corpus = ("the cat sat on the mat the dog sat on the log "
          "a cat and a dog met on the mat").split()
vocab = sorted(set(corpus))
stoi = {w: i for i, w in enumerate(vocab)}
print(len(vocab), vocab[:5])

window = 2
cooc = Counter()
for i, w in enumerate(corpus):
    for j in range(max(0, i - window), min(len(corpus), i + window + 1)):
        if i != j:
            cooc[(stoi[w], stoi[corpus[j]])] += 1.0 / abs(i - j)
pairs = sorted(cooc)
rows = torch.tensor([p[0] for p in pairs])
cols = torch.tensor([p[1] for p in pairs])
x = torch.tensor([cooc[p] for p in pairs])
print(len(pairs), x.sum().item(), x.max().item())

x_max, alpha = 3.0, 0.75
weights = torch.clamp(x / x_max, max=1.0) ** alpha
print(weights[:6])


class GloVe(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.w = nn.Embedding(n, d)
        self.wt = nn.Embedding(n, d)
        self.b = nn.Embedding(n, 1)
        self.bt = nn.Embedding(n, 1)

    def forward(self, i, j):
        dot = (self.w(i) * self.wt(j)).sum(-1)
        return dot + self.b(i).squeeze(-1) + self.bt(j).squeeze(-1)


n, d = len(vocab), 4
model = GloVe(n, d)
with torch.no_grad():
    k = torch.arange(n * d, dtype=torch.float32).view(n, d)
    model.w.weight.copy_(0.3 * torch.sin(k))
    model.wt.weight.copy_(0.3 * torch.cos(k * 0.7))
    model.b.weight.zero_()
    model.bt.weight.zero_()

opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
for step in range(30):
    opt.zero_grad()
    pred = model(rows, cols)
    loss = (weights * (pred - torch.log(x)) ** 2).sum()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        print(step, f"{loss.item():.4f}")

print(opt.state_dict()["state"][0]["sum"].shape)
vectors = model.w.weight.detach() + model.wt.weight.detach()
unit = vectors / vectors.norm(dim=1, keepdim=True)
sim = unit @ unit.T
sim.fill_diagonal_(-1.0)
for word in ["cat", "mat", "sat"]:
    score, idx = sim[stoi[word]].topk(2)
    print(word, [vocab[i] for i in idx.tolist()], [round(s, 3) for s in score.tolist()])
