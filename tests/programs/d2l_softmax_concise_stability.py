# d2l.ai 4.5 concise softmax regression: why the naive softmax overflows, the LogSumExp trick,
# and F.cross_entropy on logits (no d2l package).
import torch
from torch import nn
from torch.nn import functional as F


def naive_softmax(X):
    X_exp = torch.exp(X)
    return X_exp / X_exp.sum(1, keepdim=True)


O = torch.tensor([[1.0, 2.0, 3.0], [100.0, 101.0, 102.0], [-100.0, -101.0, -102.0]])
print(torch.exp(O))
print(naive_softmax(O))
print(naive_softmax(O * 10))
print(F.softmax(O * 10, dim=1))
print(torch.finfo(torch.float32).max, torch.finfo(torch.float32).eps, torch.finfo(torch.float32).tiny)


def stable_softmax(X):
    X_max = X.max(dim=1, keepdim=True).values
    X_exp = torch.exp(X - X_max)
    return X_exp / X_exp.sum(1, keepdim=True)


print(stable_softmax(O * 10))
y = torch.tensor([2, 0, 1])
naive_ce = -torch.log(naive_softmax(O * 10)[range(3), y])
print(naive_ce)
lse = torch.logsumexp(O * 10, dim=1)
print(lse, lse - (O * 10)[range(3), y])
print(F.cross_entropy(O * 10, y, reduction='none'), F.cross_entropy(O * 10, y))
print(F.log_softmax(O * 10, dim=1))

# concise model: Flatten + Linear, the loss takes raw logits
net = nn.Sequential(nn.Flatten(), nn.Linear(4, 3))
with torch.no_grad():
    net[1].weight.copy_(torch.arange(12.0).reshape(3, 4) / 10 - 0.5)
    net[1].bias.zero_()
X = torch.arange(16.0).reshape(4, 2, 2)
Y = torch.tensor([0, 1, 2, 2])
logits = net(X)
print(logits)
loss = F.cross_entropy(logits, Y, reduction='mean')
loss.backward()
print(loss, net[1].weight.grad, net[1].bias.grad)
print(nn.CrossEntropyLoss()(logits, Y).item() == loss.item())
print(F.cross_entropy(logits, Y, label_smoothing=0.1))
print(F.nll_loss(F.log_softmax(logits, dim=1), Y))
print(torch.exp(torch.tensor([88.0, 89.0, -104.0])), torch.log(torch.tensor([0.0, -1.0])))
x = torch.tensor([1000.0, 0.0], requires_grad=True)
s = torch.softmax(x, 0)
s[1].backward()
print(s, x.grad)
x = torch.tensor([1000.0, 0.0], requires_grad=True)
n = naive_softmax(x.unsqueeze(0))
n[0, 1].backward()
print(n, x.grad)
print(torch.tensor([float('inf')]) - torch.tensor([float('inf')]), torch.tensor([1e38]) * 10)
print(torch.isfinite(naive_softmax(O * 10)), torch.isinf(torch.exp(O * 10)).sum())
