# Code that breaks the graph inside a compiled function — print(), .item(), a data-dependent if,
# a helper under @torch.compiler.disable — must still compute the right values.
import torch
import torch.nn as nn


@torch.compiler.disable
def log_stats(t):
    print("stats", round(t.mean().item(), 4), round(t.std().item(), 4))
    return t


@torch.compile
def normalize(x):
    m = x.mean()
    print("inside normalize, mean =", round(m.item(), 4))
    x = log_stats(x - m)
    if x.abs().max() > 2:
        x = x / x.abs().max()
    return x * 2


a = torch.linspace(-1, 3, 8)
out = normalize(a)
print(torch.round(out, decimals=4))
out = normalize(a * 0.1)
print(torch.round(out, decimals=4))


@torch.compile
def scaled_loss(pred, target):
    diff = pred - target
    scale = 1.0 / (1.0 + diff.abs().max().item())
    return (diff ** 2).mean() * scale


p = torch.linspace(0, 1, 6, requires_grad=True)
t = torch.full((6,), 0.25)
loss = scaled_loss(p, t)
loss.backward()
print(f"{loss.item():.4f}", p.grad)


class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        h = self.fc(x)
        n = int((h > 0).sum())
        print("positive units:", n)
        return h.relu() * n


m = Gated()
with torch.no_grad():
    m.fc.weight.copy_(torch.arange(9.).view(3, 3) / 9 - 0.4)
    m.fc.bias.copy_(torch.tensor([0.1, -0.1, 0.0]))
cm = torch.compile(m)
x = torch.linspace(-1, 1, 6).view(2, 3)
y = cm(x)
print(torch.round(y, decimals=4))
y.sum().backward()
print(torch.round(m.fc.weight.grad, decimals=4))
print(torch.compiler.is_compiling())
