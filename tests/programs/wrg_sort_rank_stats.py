# Ranking utilities in eval code: stable sort/argsort with ties, descending, msort, ranks via
# double argsort, median/mode/nanmedian with indices, cummax/cummin, running max drawdown.
import torch

torch.set_printoptions(precision=4)
scores = torch.tensor([3.0, 1.0, 3.0, 2.0, 1.0, 3.0, 0.5])
print(torch.sort(scores, stable=True))
print(torch.sort(scores, descending=True, stable=True))
print(scores.argsort(stable=True, descending=True))
print(torch.argsort(scores, dim=0, stable=True))
print(torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]])))
ranks = scores.argsort(stable=True).argsort()
print("ranks", ranks)
m = torch.tensor([[4, 1, 4, 2], [7, 7, 3, 3], [1, 2, 3, 4]])
print(m.sort(dim=1))
print(m.sort(dim=0, descending=True))
print(torch.sort(torch.tensor([2.0, float("nan"), -1.0, float("inf"), float("nan")])))
print(torch.sort(torch.tensor([2.0, float("nan"), -1.0, float("inf")]), descending=True))
print(torch.tensor([True, False, True]).sort())

vals = torch.tensor([[1.0, 5.0, 2.0, 5.0], [3.0, 3.0, 1.0, 1.0], [2.0, 4.0, 6.0, 8.0]])
print(vals.median())
print(vals.median(dim=1))
print(torch.median(vals, dim=0, keepdim=True))
print(torch.nanmedian(torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 2.0]]), dim=1))
print(torch.median(torch.tensor([1.0, float("nan"), 3.0])))
print(torch.mode(torch.tensor([[1, 2, 2, 3, 3], [4, 4, 5, 5, 5]]), dim=1))
print(torch.mode(torch.tensor([2.0, 1.0, 1.0, 2.0, 3.0])))
print(torch.kthvalue(torch.tensor([3.0, 1.0, 2.0, 1.0]), 2))

prices = torch.tensor([10.0, 11.0, 9.0, 12.0, 8.0, 13.0, 13.0, 7.0])
peak = torch.cummax(prices, dim=0)
print(peak)
print(torch.cummin(prices, 0))
drawdown = (prices - peak.values) / peak.values
print("max drawdown", drawdown.min().item())
print(prices.cumsum(0), prices.cumprod(0))
print(torch.logcumsumexp(prices / 10, dim=0))
grid = torch.tensor([[1, 3, 2], [4, 0, 5]])
print(torch.cummax(grid, dim=1))
print(grid.cumsum(dim=1).dtype, torch.tensor([True, True, False]).cumsum(0))
print(torch.cumsum(grid, dim=0, dtype=torch.float64))

# gradients
p = prices.clone().requires_grad_(True)
cm = torch.cummax(p, 0).values
cm.sum().backward()
print(p.grad)
p.grad = None
med = torch.median(p)
med.backward()
print(p.grad)
p.grad = None
s, i = torch.sort(p, descending=True)
(s * torch.arange(8.0)).sum().backward()
print(p.grad)
print(s.grad_fn.__class__.__name__)
