# Series preprocessing: per-series z-score with mean/std(keepdim), min-max scaling, differencing
# with torch.diff and inverting with cumsum, log-returns and cumprod, running max drawdown via
# cummax, lag features via roll, and gradients through the cumulative ops.
import torch

t = torch.arange(12, dtype=torch.float32)
prices = torch.stack([100 + 5 * torch.sin(0.8 * t) + t, 50 + 2 * torch.cos(0.5 * t) - 0.5 * t])
print(prices.shape)
mu = prices.mean(dim=-1, keepdim=True)
sd = prices.std(dim=-1, keepdim=True)
z = (prices - mu) / sd
print(mu.squeeze(), sd.squeeze())
print(z.mean(dim=1).abs().lt(1e-5), z.std(dim=1, unbiased=False))
print(prices.std(dim=-1, correction=0), prices.var(dim=1, keepdim=True).shape)
mn, mx = prices.min(dim=1, keepdim=True).values, prices.amax(dim=1, keepdim=True)
scaled = (prices - mn) / (mx - mn)
print(scaled[:, :4])
print(torch.std_mean(prices, dim=1))

d = torch.diff(prices, dim=1)
print(d.shape, d[0, :4])
rec = torch.cat([prices[:, :1], prices[:, :1] + d.cumsum(dim=1)], dim=1)
print(torch.allclose(rec, prices))
print(torch.diff(prices, n=2, dim=-1)[:, :3])
print(torch.diff(prices[0], prepend=prices[0, :1])[:3], torch.diff(prices[1], append=torch.tensor([0.0, 1.0]))[-3:])

ret = prices[:, 1:] / prices[:, :-1] - 1
growth = (1 + ret).cumprod(dim=1)
print(growth[:, -1], (prices[:, -1] / prices[:, 0]))
logret = torch.log(prices).diff(dim=1)
print(logret.cumsum(1).exp()[:, -1])
peak = prices.cummax(dim=1)
print(peak.values[0], peak.indices[0])
drawdown = (prices - peak.values) / peak.values
print(drawdown.min(dim=1))
print(prices.cummin(dim=1).indices[1])
print(torch.logcumsumexp(z, dim=1)[:, -1])

lag1 = torch.roll(prices, shifts=1, dims=1)
lag1[:, 0] = float("nan")
print(lag1[:, :3])
print(torch.roll(t, -2)[:4], torch.roll(prices, shifts=(1, 2), dims=(0, 1))[:, :3])

x = torch.linspace(0.5, 2.0, 6, requires_grad=True)
y = x.cumprod(0)
y.sum().backward()
print(y.grad_fn.name(), x.grad)
x.grad = None
m = torch.tensor([1.0, 3.0, 2.0, 3.0, 5.0, 4.0], requires_grad=True)
cm = m.cummax(0).values
(cm * torch.arange(1.0, 7.0)).sum().backward()
print(cm.grad_fn.name(), m.grad)
x2 = torch.tensor([1.0, 0.0, 2.0, 3.0], requires_grad=True)
x2.cumprod(0).sum().backward()
print(x2.grad)
xs = torch.arange(6.0, requires_grad=True).reshape(2, 3)
(xs.cumsum(dim=0) ** 2).sum().backward()
print(xs.grad)
print(torch.arange(5).cumsum(0).dtype, torch.tensor([True, False, True]).cumsum(0), torch.arange(1, 6, dtype=torch.int32).cumprod(0).dtype)
print(torch.cumsum(torch.ones(3, dtype=torch.float16), 0, dtype=torch.float64))
