# A compiled model trained over DataLoader batches (last batch smaller), then evaluated under no_grad.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

X = torch.linspace(-2, 2, 20).view(10, 2)
Y = (X[:, 0] - 0.5 * X[:, 1] > 0).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=4)
print(len(loader), [len(yb) for _, yb in loader])

model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape) * 0.6)
cmodel = torch.compile(model)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)

for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(cmodel(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(yb)
    print(epoch, f"{total / len(X):.5f}")

with torch.no_grad():
    logits = cmodel(X)
    preds = logits.argmax(dim=1)
print(logits.requires_grad, preds.tolist(), (preds == Y).sum().item())
print(model[2].weight)
with torch.no_grad():
    print(torch.allclose(cmodel(X[:3]), model(X[:3]), atol=1e-6))
