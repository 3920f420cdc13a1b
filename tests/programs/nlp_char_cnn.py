# Character-level CNN word encoder (Kim-style): char vocab, padded char index tensors,
# Embedding -> Conv1d with several kernel widths -> ReLU -> max over time -> concat -> Linear,
# highway-ish gate, trained with CrossEntropyLoss; prints shapes, losses and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

words = ["cat", "cats", "dog", "dogs", "bird", "birds", "a", "tree"]
labels = torch.tensor([0, 1, 0, 1, 0, 1, 0, 0])  # plural?
chars = ["<pad>"] + sorted(set("".join(words)))
c2i = {c: i for i, c in enumerate(chars)}
maxlen = max(len(w) for w in words)
X = torch.zeros(len(words), maxlen, dtype=torch.long)
for i, w in enumerate(words):
    X[i, : len(w)] = torch.tensor([c2i[c] for c in w])
print(X.shape, X[1], chars)


class CharCNN(nn.Module):
    def __init__(self, V, D=5, widths=(1, 2, 3), filters=4):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(D, filters, k, padding=k // 2) for k in widths)
        H = filters * len(widths)
        self.gate = nn.Linear(H, H)
        self.fc = nn.Linear(H, 2)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        e = self.emb(x).transpose(1, 2)                 # (B, D, L)
        feats = [F.relu(conv(e)).max(dim=2).values for conv in self.convs]
        h = torch.cat(feats, dim=1)
        g = torch.sigmoid(self.gate(h))
        h = g * F.relu(h) + (1 - g) * h
        return self.fc(self.drop(h))


model = CharCNN(len(chars))
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape) * 0.4)
print(model)
print([tuple(c(torch.zeros(1, 5, maxlen)).shape) for c in model.convs])
opt = torch.optim.Adam(model.parameters(), lr=0.03)
model.train()
model.drop.p = 0.0
for epoch in range(30):
    opt.zero_grad()
    logits = model(X)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    if epoch % 6 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")
print(model.convs[1].weight.grad.shape, model.emb.weight.grad[0])
model.eval()
with torch.no_grad():
    pred = model(X).argmax(1)
print(pred, (pred == labels).sum().item())
pooled = F.max_pool1d(torch.arange(12.).reshape(1, 2, 6), kernel_size=6)
print(pooled, F.adaptive_max_pool1d(torch.arange(12.).reshape(1, 2, 6), 1, return_indices=True))
