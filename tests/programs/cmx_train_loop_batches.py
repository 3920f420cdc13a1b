# The "model = torch.compile(model)" training loop from tutorials: a DataLoader whose last batch is
# smaller (a recompile), SGD with momentum, eval with no_grad every epoch.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

xs = torch.linspace(-1, 1, 40).view(20, 2)
ys = (torch.sin(3 * xs[:, 0]) + xs[:, 1] ** 2).unsqueeze(1)
loader = DataLoader(TensorDataset(xs, ys), batch_size=8, shuffle=False)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


model = Regressor()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        n = p.numel()
        p.copy_(torch.sin(torch.arange(n, dtype=torch.float32) * 1.3 + 0.7 * i).view(p.shape) * 0.4)

model = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(6):
    model.train()
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        pred = model(xb)
        loss = F.mse_loss(pred, yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.shape[0]
    model.eval()
    with torch.no_grad():
        val = F.mse_loss(model(xs), ys)
    print(f"epoch {epoch} train {total / len(xs):.4f} val {val.item():.4f} training={model.training}")

with torch.no_grad():
    pred = model(xs[:5])
print(pred.shape, pred.requires_grad)
print([round(v, 3) for v in pred.squeeze(1).tolist()])
print(model.net[0].weight.grad.shape)
