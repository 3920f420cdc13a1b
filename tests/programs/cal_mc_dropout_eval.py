# MC-dropout style uncertainty with deterministic outputs: enable only dropout modules
# (p=0 so masks are identity) via model.apply, repeat T passes, compute mean/std/variance ratio.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, p=0.0):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.bn = nn.BatchNorm1d(16)
        self.drop = nn.Dropout(p)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))


def enable_dropout(m):
    if isinstance(m, nn.Dropout):
        m.train()


net = Net()
with torch.no_grad():
    for i, (name, p) in enumerate(net.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p))
    net.bn.running_mean.copy_(torch.linspace(-0.5, 0.5, 16))
    net.bn.running_var.copy_(torch.linspace(0.5, 1.5, 16))
net.eval()
net.apply(enable_dropout)
print([(n, m.training) for n, m in net.named_modules()])
x = torch.stack([torch.linspace(-1, 1, 6) * k for k in range(1, 5)], 1)
T = 8
with torch.no_grad():
    samples = torch.stack([F.softmax(net(x), -1) for _ in range(T)])
print(samples.shape)
mean = samples.mean(0)
std = samples.std(0, unbiased=True)
var_u, mean_u = torch.var_mean(samples, dim=0, correction=0)
print(mean.round(decimals=4))
print(std.abs().max().item() < 1e-6, var_u.max().item() < 1e-10)
pred = mean.argmax(1)
counts = torch.stack([(samples.argmax(-1) == c).sum(0) for c in range(3)], 1)
variation_ratio = 1 - counts.max(1).values.float() / T
print(pred, variation_ratio)
std_mean = torch.std_mean(samples[:, :, 0], dim=0)
print(type(std_mean).__name__, [s.shape for s in std_mean])
ent = torch.special.entr(mean).sum(-1)
print(ent.round(decimals=4))
print(torch.special.xlogy(mean, mean).sum(-1).neg().round(decimals=4))
drop_true = nn.Dropout(0.5)
drop_true.train()
y = drop_true(torch.ones(100))
print(y.shape, set(y.unique().tolist()) <= {0.0, 2.0})
print(nn.Dropout(1.0)(torch.ones(3)))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print(type(e).__name__, e)
