# Bag-of-words text classifier from scratch: vocabulary with min_freq and <unk>, one_hot
# multi-hot / count vectors, a linear model trained with BCEWithLogits, plus F.one_hot details.
import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import Counter

train = [("good great fun", 1), ("bad boring awful", 0), ("great plot good cast", 1),
         ("awful plot bad", 0), ("fun fun good", 1), ("boring bad cast", 0)]
counter = Counter(w for s, _ in train for w in s.split())
itos = ["<unk>"] + sorted(w for w, c in counter.items() if c >= 2)
stoi = {w: i for i, w in enumerate(itos)}
print(itos)


def encode(s):
    return torch.tensor([stoi.get(w, 0) for w in s.split()])


def bow(ids, V):
    return F.one_hot(ids, num_classes=V).sum(0).float()


V = len(itos)
X = torch.stack([bow(encode(s), V) for s, _ in train])
y = torch.tensor([float(l) for _, l in train])
print(X)
multi_hot = (X > 0).float()
print(multi_hot.sum(1))

oh = F.one_hot(encode("fun plot zebra"), V)
print(oh, oh.dtype)
print(F.one_hot(torch.tensor([[0, 2], [1, 0]])).shape)
print(F.one_hot(torch.arange(3) % 2, -1))
try:
    F.one_hot(torch.tensor([3]), num_classes=2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([1.0]), 3)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([-1]), 3)
except RuntimeError as e:
    print(type(e).__name__, e)

model = nn.Linear(V, 1)
with torch.no_grad():
    model.weight.zero_()
    model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.5, weight_decay=1e-3)
crit = nn.BCEWithLogitsLoss()
for epoch in range(30):
    opt.zero_grad()
    logits = model(X).squeeze(1)
    loss = crit(logits, y)
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        acc = ((logits > 0).float() == y).float().mean()
        print(epoch, f"{loss.item():.4f}", acc.item())

w = model.weight.detach().squeeze(0)
order = w.argsort(descending=True)
print([(itos[i], round(w[i].item(), 3)) for i in order.tolist()])
test = torch.stack([bow(encode(s), V) for s in ["good fun cast", "awful boring"]])
print(torch.sigmoid(model(test)).squeeze(1).round(decimals=3))

# tf-idf weighting of the count matrix
df = (X > 0).sum(0).float()
idf = torch.log((1 + X.size(0)) / (1 + df)) + 1
tfidf = F.normalize(X * idf, p=2, dim=1)
print(tfidf[0].round(decimals=4))
print((tfidf @ tfidf.T)[0].round(decimals=3))
