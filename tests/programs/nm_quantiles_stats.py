# Descriptive statistics: quantile/nanquantile with interpolation modes, median/nanmedian,
# mode, std_mean/var_mean with correction, cov with fweights/aweights, corrcoef.
import torch

x = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0])
q = torch.tensor([0.1, 0.25, 0.5, 0.9])
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(f"{mode:8s}", torch.quantile(x, q, interpolation=mode))
print("scalar q:", torch.quantile(x, 0.3), torch.quantile(x, 0.3, interpolation="nearest"))

M = torch.arange(12, dtype=torch.float64).reshape(3, 4) ** 1.5
print(torch.quantile(M, torch.tensor([0.2, 0.8], dtype=torch.float64), dim=1, keepdim=True).shape)
print(torch.quantile(M, 0.5, dim=0))
xn = torch.tensor([[1.0, float("nan"), 3.0, 4.0], [float("nan")] * 4])
print("nanquantile:", torch.nanquantile(xn, 0.5, dim=1))
print("quantile w/ nan:", torch.quantile(xn, 0.5, dim=1))
print("nanquantile lower:", torch.nanquantile(xn, torch.tensor([0.25, 0.75]), dim=1, interpolation="lower"))
try:
    torch.quantile(x, 1.5)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.quantile(x, 0.5, interpolation="cubic")
except RuntimeError as e:
    print(type(e).__name__, e)

print("median:", torch.median(x), torch.median(M, dim=1))
print("nanmedian:", torch.nanmedian(xn), torch.nanmedian(xn[:1], dim=1))
vals = torch.tensor([[1, 2, 2, 3, 3], [4, 4, 5, 5, 6]])
print("mode:", torch.mode(vals, dim=1))
print("mode 1-d:", torch.mode(torch.tensor([7, 7, 1, 1, 2])))

s, m = torch.std_mean(M, dim=1)
print("std_mean:", s.round(decimals=4), m.round(decimals=4))
v, m = torch.var_mean(M, dim=0, correction=0, keepdim=True)
print("var_mean:", v.round(decimals=4), m.shape)
print("unbiased=False:", torch.var(x, unbiased=False), torch.std(x, 0, True))

obs = torch.stack([torch.arange(6.0), torch.arange(6.0) ** 2, torch.cos(torch.arange(6.0))])
print("cov:", torch.cov(obs).round(decimals=4))
print("cov corr=0:", torch.cov(obs, correction=0).round(decimals=4))
fw = torch.tensor([1, 2, 1, 3, 1, 1])
aw = torch.tensor([0.5, 1.0, 1.0, 2.0, 0.5, 1.0])
print("fweights:", torch.cov(obs, fweights=fw).round(decimals=4))
print("aweights:", torch.cov(obs, aweights=aw).round(decimals=4))
print("both:", torch.cov(obs, fweights=fw, aweights=aw).round(decimals=4))
print("1-d cov:", torch.cov(torch.arange(5.0)))
print("corrcoef:", torch.corrcoef(obs).round(decimals=4))
print("int cov dtype:", torch.cov(torch.tensor([[1, 2, 3], [2, 2, 5]])).dtype)
try:
    torch.cov(obs, fweights=torch.tensor([1.0] * 6))
except RuntimeError as e:
    print(type(e).__name__, e)
