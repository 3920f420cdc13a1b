# Robust statistics (scientific blog / SO "why does torch.median differ from numpy"):
# quantile interpolation modes, median vs nanmedian (lower of two middles), mode, nanquantile.
import torch

torch.set_printoptions(precision=4)

x = torch.tensor([1.0, 7.0, 3.0, 4.0, 10.0, 2.0])
q = torch.tensor([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(f"{mode:9s}", torch.quantile(x, q, interpolation=mode))
print("scalar q", torch.quantile(x, 0.5), torch.quantile(x, 0.5).shape)
print("median (lower middle)", torch.median(x))
m = torch.tensor([[3.0, 1.0, 2.0, 8.0], [5.0, 5.0, 0.0, 1.0]])
print("quantile dim=1", torch.quantile(m, 0.5, dim=1))
print("0-dim tensor q", torch.quantile(m, torch.tensor(0.9), dim=1), torch.quantile(m, torch.tensor(0.9)))
print("quantile dim=1 keepdim", torch.quantile(m, torch.tensor([0.25, 0.75]), dim=1, keepdim=True))
print("quantile dim=0 q vec", torch.quantile(m, torch.tensor([0.25, 0.75]), dim=0))
vals, idx = torch.median(m, dim=1)
print("median dim=1", vals, idx)
r = m.median(dim=0, keepdim=True)
print(type(r).__name__, r.values, r.indices)

n = torch.tensor([1.0, float("nan"), 3.0, 2.0])
print("median with nan", torch.median(n))
print("nanmedian", torch.nanmedian(n))
print("quantile with nan", torch.quantile(n, 0.5))
print("nanquantile", torch.nanquantile(n, torch.tensor([0.0, 0.5, 1.0])))
nm = torch.tensor([[float("nan"), 1.0, 2.0], [float("nan")] * 3])
print("nanmedian dim", torch.nanmedian(nm, dim=1))
print("nanquantile all-nan row", torch.nanquantile(nm, 0.5, dim=1))

try:
    torch.quantile(x, 1.5)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.quantile(torch.arange(5), 0.5)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.quantile(x, 0.5, interpolation="cubic")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.quantile(x, torch.tensor([0.5], dtype=torch.float64))
except Exception as e:
    print(type(e).__name__, e)

votes = torch.tensor([3, 1, 3, 2, 1, 3, 2, 2])
print("mode", torch.mode(votes))
print("mode ties", torch.mode(torch.tensor([4, 1, 4, 1, 7])))
g = torch.tensor([[1, 2, 2, 3], [5, 5, 6, 6], [0, 0, 0, 9]])
mv, mi = torch.mode(g, dim=1)
print("mode dim=1", mv, mi)
print("mode dim=0", g.mode(dim=0).values)
print("int median", torch.median(torch.tensor([5, 3, 1, 4])))
print("empty median", torch.median(torch.tensor([])))
print("median even count", torch.tensor([1.0, 2.0, 3.0, 4.0]).median(), torch.tensor([1.0, 2.0, 3.0, 4.0]).quantile(0.5))
print("float64 quantile", torch.quantile(x.double(), 0.3, interpolation="nearest"))
print("nearest half", torch.quantile(torch.arange(4.0), torch.tensor([0.5, 1 / 6]), interpolation="nearest"))
