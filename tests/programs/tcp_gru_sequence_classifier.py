# Tutorial-style recurrent classifier: an nn.GRU + Linear head wrapped with
# `model = torch.compile(model)` and trained with Adam on sine/cosine sequences.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SeqClassifier(nn.Module):
    def __init__(self, n_in=2, hidden=8, n_classes=3):
        super().__init__()
        self.rnn = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        out, h = self.rnn(x)
        return self.head(out[:, -1])


def init_weights(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            n = p.numel()
            p.copy_((torch.arange(n, dtype=torch.float32).sin() * 0.3 + 0.01 * i).view_as(p))


t = torch.linspace(0, 3.14, 4)
xs, ys = [], []
for k in range(12):
    freq = 1.0 + (k % 3)
    seq = torch.stack([torch.sin(freq * t + 0.1 * k), torch.cos(freq * t)], dim=-1)
    xs.append(seq)
    ys.append(k % 3)
X = torch.stack(xs)
Y = torch.tensor(ys)
print("data", X.shape, Y.shape, X.dtype)

model = SeqClassifier()
init_weights(model)
compiled = torch.compile(model)
opt = torch.optim.Adam(model.parameters(), lr=0.05)

for step in range(25):
    opt.zero_grad()
    logits = compiled(X)
    loss = F.cross_entropy(logits, Y)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        print(f"step {step:2d} loss {loss.item():.4f}")

with torch.no_grad():
    pred = compiled(X).argmax(dim=1)
print("pred", pred.tolist())
print("accuracy", (pred == Y).float().mean().item())
print("grad shapes", [tuple(p.grad.shape) for p in model.rnn.parameters()])
print(type(compiled).__name__, isinstance(compiled, nn.Module))
print(list(compiled.state_dict().keys())[:3])

# a shorter sequence goes through the same compiled model (new shape -> recompile)
short = X[:4, :3]
with torch.no_grad():
    out = compiled(short)
print(out.shape, torch.allclose(out, model(short), atol=1e-5))
