# Cumulative operations in numerical code: running sums/products, running max for drawdown,
# logcumsumexp for stable log-partition, reverse cumsum via flip, and their gradients.
import torch

r = torch.tensor([0.02, -0.01, 0.03, -0.05, 0.01, 0.04, -0.02], dtype=torch.float64)
wealth = torch.cumprod(1 + r, dim=0)
print("wealth:", wealth.round(decimals=5))
peak = torch.cummax(wealth, dim=0)
print("peak:", peak.values.round(decimals=5), peak.indices)
print("drawdown:", (1 - wealth / peak.values).max().item().__round__(5))
low = torch.cummin(r, 0)
print("cummin:", low)

x = torch.arange(1, 13, dtype=torch.float32).reshape(3, 4)
print(torch.cumsum(x, dim=1))
print(torch.cumsum(x, dim=0, dtype=torch.float64))
print(x.cumprod(1))
print("reverse cumsum:", x.flip(1).cumsum(1).flip(1))
print(torch.cumsum(torch.tensor([True, False, True]), 0))
print(torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int8), 0).dtype)

logits = torch.tensor([[-1.0, 0.5, 2.0, 30.0], [100.0, 100.0, -100.0, 0.0]])
lc = torch.logcumsumexp(logits, dim=1)
print("logcumsumexp:", lc)
print("matches naive row0:", torch.allclose(lc[0], torch.log(torch.cumsum(torch.exp(logits[0]), 0))))
print(torch.logcumsumexp(torch.tensor([float("-inf"), float("-inf"), 0.0]), 0))

# gradients
a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
out = torch.cumprod(a, 0)
out.sum().backward()
print("cumprod grad:", a.grad, out.grad_fn.name())
b = torch.tensor([1.0, 0.0, 3.0, 2.0], requires_grad=True)
torch.cumprod(b, 0).sum().backward()
print("cumprod grad with zero:", b.grad)
c = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0], requires_grad=True)
cm = torch.cummax(c, 0)
cm.values.sum().backward()
print("cummax grad:", c.grad, cm.values.grad_fn.name())
d = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
torch.logcumsumexp(d, 0).sum().backward()
print("logcumsumexp grad:", d.grad.round(decimals=4))
e = torch.arange(6.0).reshape(2, 3).requires_grad_()
(torch.cumsum(e, 1) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("cumsum grad:", e.grad)

# in-place / out= variants
buf = torch.empty(4)
torch.cumsum(torch.ones(4), 0, out=buf)
print(buf)
y = torch.ones(2, 3)
y.cumsum_(1)
print(y)
try:
    torch.cumsum(torch.ones(3), 1)
except IndexError as err:
    print(type(err).__name__, err)
