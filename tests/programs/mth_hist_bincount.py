# Histograms and counting as in data-analysis notebooks: histc (fixed range, out-of-range values
# dropped), torch.histogram with bins/edges/density/weights, bincount with weights/minlength, cummax.
import torch

torch.set_printoptions(precision=4)

x = torch.tensor([0.1, 0.5, 0.9, 1.0, 1.5, 2.0, 2.5, 3.0, -1.0, 4.2])
print("histc", torch.histc(x, bins=4, min=0, max=3))
print("histc auto range", torch.histc(x, bins=5))
print("histc equal min max", torch.histc(torch.tensor([2.0, 2.0, 2.0]), bins=3))
print("histc float64", torch.histc(x.double(), bins=3, min=-1, max=5))
try:
    torch.histc(x, bins=3, min=3, max=0)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.histc(torch.arange(5), bins=3)
except Exception as e:
    print(type(e).__name__, e)

h = torch.histogram(x, bins=4)
print(type(h).__name__)
print("hist", h.hist, "edges", h.bin_edges)
h = torch.histogram(x, bins=3, range=(0.0, 3.0))
print("range", h.hist, h.bin_edges)
h = torch.histogram(x, bins=torch.tensor([-2.0, 0.0, 1.0, 5.0]))
print("custom edges", h.hist)
h = torch.histogram(x, bins=torch.tensor([-2.0, 0.0, 1.0, 5.0]), density=True)
print("density", h.hist, "integral", (h.hist * h.bin_edges.diff()).sum())
w = torch.linspace(0.1, 1.0, 10)
h = torch.histogram(x, bins=2, weight=w)
print("weighted", h.hist, h.bin_edges)
hist, edges = torch.histogram(x, 5, density=True)
print("unpacked", hist, edges)
try:
    torch.histogram(torch.arange(4), bins=2)
except Exception as e:
    print(type(e).__name__, e)

labels = torch.tensor([0, 2, 2, 3, 0, 2, 7])
print("bincount", torch.bincount(labels))
print("bincount minlength", torch.bincount(labels, minlength=10))
print("bincount short minlength", labels.bincount(minlength=3))
wts = torch.tensor([0.5, 1.0, 1.0, 2.0, 0.25, 1.0, 3.0])
print("bincount weights", torch.bincount(labels, weights=wts))
print("bincount weights f64", torch.bincount(labels, weights=wts.double()).dtype)
print("bincount int weights", torch.bincount(labels, weights=torch.tensor([1, 2, 3, 4, 5, 6, 7])))
print("bincount empty", torch.bincount(torch.tensor([], dtype=torch.long)))
print("bincount empty minlength", torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
try:
    torch.bincount(torch.tensor([1, -1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except Exception as e:
    print(type(e).__name__, e)
# class-balanced weights as in imbalanced-classification posts
counts = torch.bincount(labels, minlength=8).float()
print("inverse freq", torch.where(counts > 0, counts.sum() / (8 * counts), torch.zeros(())))

series = torch.tensor([1.0, 3.0, 2.0, 5.0, 5.0, 4.0, 6.0, 1.0])
vals, idx = torch.cummax(series, dim=0)
print("cummax", vals, idx)
print("drawdown", series - vals)
r = torch.cummin(series, 0)
print(type(r).__name__, r.values, r.indices)
mat = torch.tensor([[1, 5, 2], [4, 1, 6], [3, 7, 0]])
print("cummax dim=1", mat.cummax(dim=1))
print("cummax nan", torch.cummax(torch.tensor([1.0, float("nan"), 2.0, 3.0]), 0))
