# A minimal regression training loop over a DataLoader (TensorDataset, sequential batches,
# drop_last) with deterministic weights; per-epoch mean loss and gradient flow through collate.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset, default_collate

x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * x + 0.5 + 0.1 * torch.sin(5 * x)
ds = TensorDataset(x, y)
loader = DataLoader(ds, batch_size=6, shuffle=False, drop_last=True)
model = nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.1)
    model.bias.fill_(-0.2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
print("batches per epoch", len(loader))
for epoch in range(15):
    total, n = 0.0, 0
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
        n += xb.size(0)
    if epoch % 3 == 0 or epoch == 14:
        print(f"epoch {epoch:2d} loss {total / n:.5f} seen {n}")
print(f"w={model.weight.item():.4f} b={model.bias.item():.4f}")


class Features(Dataset):
    def __init__(self, w):
        self.w = w

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.w * (i + 1)


w = torch.tensor([1.0, -2.0], requires_grad=True)
batch = default_collate([Features(w)[i] for i in range(3)])
print(batch.requires_grad, type(batch.grad_fn).__name__, batch.shape)
batch.sum().backward()
print(w.grad)
fl = DataLoader(Features(w), batch_size=2)
b0 = next(iter(fl))
print(b0, b0.grad_fn is not None)
with torch.no_grad():
    b1 = next(iter(fl))
print(b1.requires_grad)
