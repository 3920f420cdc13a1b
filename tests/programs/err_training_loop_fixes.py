# Forum question: "my training loop crashes" — a small regression/classification loop hitting the
# classic errors one by one (dtype of targets, shapes, double inputs, BN with batch of 1), each fixed.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def show(step, e):
    print(f"[{step}]", type(e).__name__, e)


def make_model():
    model = nn.Sequential(nn.Linear(2, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (1 + 0.1 * i))
    return model


t = torch.linspace(0, 3, 30)
X64 = torch.stack([torch.sin(t), torch.cos(t)], dim=1).double()
y_float = (torch.arange(30) % 3).float()

# attempt 1: double features, float labels, batch size that leaves a batch of 1 at the end
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
loader = DataLoader(TensorDataset(X64, y_float), batch_size=29)
for step, (xb, yb) in enumerate(loader):
    try:
        out = model(xb)
    except RuntimeError as e:
        show(step, e)
        xb = xb.float()
        try:
            out = model(xb)
        except ValueError as e2:
            show(step, e2)
            continue
    try:
        loss = crit(out, yb)
    except RuntimeError as e:
        show(step, e)
        loss = crit(out, yb.long())
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, xb.shape, f"{loss.item():.4f}")

# attempt 2: everything fixed, drop_last to avoid the lone sample
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(X64.float(), y_float.long()), batch_size=8, drop_last=True)
losses = []
for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    losses.append(total / len(loader))
    print(f"epoch {epoch} loss {losses[-1]:.4f}")
print("decreased:", losses[-1] < losses[0])

# the lone-sample batch
try:
    model(X64[:1].float())
except ValueError as e:
    print("single sample train:", type(e).__name__, e)
model.eval()
with torch.no_grad():
    pred = model(X64[:1].float())
print("single sample eval:", pred.shape, pred.argmax(1))

# forgot model.eval(): predictions depend on the batch
model.train()
with torch.no_grad():
    a = model(X64[:4].float())[0]
    b = model(X64[:8].float())[0]
print("train-mode outputs equal across batches:", torch.allclose(a, b))
model.eval()
with torch.no_grad():
    a = model(X64[:4].float())[0]
    b = model(X64[:8].float())[0]
print("eval-mode outputs equal across batches:", torch.allclose(a, b))

# accuracy with wrong comparison shapes
with torch.no_grad():
    logits = model(X64.float())
preds = logits.argmax(dim=1, keepdim=True)
print("wrong acc shape:", (preds == y_float.long()).shape)
print("right acc:", f"{(logits.argmax(1) == y_float.long()).float().mean().item():.4f}")
try:
    (preds == y_float.long()[:10]).sum()
except RuntimeError as e:
    print(type(e).__name__, e)
