# fastText-style text classification with nn.EmbeddingBag (offsets, mode='mean'/'sum'),
# per_sample_weights, padding_idx, then CrossEntropyLoss training with label smoothing.
import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import Counter

docs = [("good great fun", 1), ("bad awful boring", 0), ("great movie good acting", 1),
        ("boring plot bad acting", 0), ("fun fun good", 1), ("awful", 0)]
counter = Counter(w for d, _ in docs for w in d.split())
itos = ["<pad>", "<unk>"] + sorted(counter)
stoi = {w: i for i, w in enumerate(itos)}
print(itos)

def encode(text):
    return [stoi.get(w, 1) for w in text.split()]

tokens = [torch.tensor(encode(d)) for d, _ in docs]
labels = torch.tensor([l for _, l in docs])
text = torch.cat(tokens)
offsets = torch.tensor([0] + [len(t) for t in tokens[:-1]]).cumsum(dim=0)
print(text, offsets)


class FastText(nn.Module):
    def __init__(self, V, D, C):
        super().__init__()
        self.embedding = nn.EmbeddingBag(V, D, mode="mean")
        self.fc = nn.Linear(D, C)

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


model = FastText(len(itos), 4, 2)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape) * 0.3)
print(model)
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(25):
    opt.zero_grad()
    out = model(text, offsets)
    loss = criterion(out, labels)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        acc = (out.argmax(1) == labels).float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc.item():.2f}")

with torch.no_grad():
    probs = F.softmax(model(torch.tensor(encode("good fun") + encode("bad boring unknownword")), torch.tensor([0, 2])), dim=1)
print(probs.round(decimals=3))

bag_sum = nn.EmbeddingBag(5, 3, mode="sum")
bag_max = nn.EmbeddingBag(5, 3, mode="max")
with torch.no_grad():
    bag_sum.weight.copy_(torch.arange(15.).reshape(5, 3))
    bag_max.weight.copy_(torch.arange(15.).reshape(5, 3).flip(0))
inp = torch.tensor([[1, 2, 4], [0, 3, 3]])
print(bag_sum(inp), bag_max(inp))
print(bag_sum(torch.tensor([1, 2, 4, 0]), torch.tensor([0, 1]), per_sample_weights=torch.tensor([0.5, 1.0, 2.0, -1.0])))
pb = nn.EmbeddingBag(5, 2, mode="mean", padding_idx=0)
with torch.no_grad():
    pb.weight.copy_(torch.arange(10.).reshape(5, 2))
print(pb(torch.tensor([[0, 1, 2], [0, 0, 3]])))
out = pb(torch.tensor([[0, 1, 2], [0, 0, 3]])).sum()
out.backward()
print(pb.weight.grad)
try:
    bag_max(torch.tensor([1, 2]), torch.tensor([0]), per_sample_weights=torch.tensor([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__, e)
