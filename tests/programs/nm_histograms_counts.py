# Histograms of sampled data: histc with min/max, histogram with int bins, tensor edges,
# range=, weight= and density=, bincount with weights/minlength, and an empirical CDF.
import torch

data = torch.sin(torch.arange(200, dtype=torch.float32) * 0.37) * 3 + torch.arange(200) % 7 * 0.1
print("histc:", torch.histc(data, bins=8, min=-4, max=4))
print("histc auto range:", torch.histc(data, bins=5))
print("histc int64 dtype error:")
try:
    torch.histc(torch.arange(10), bins=3)
except RuntimeError as e:
    print(" ", type(e).__name__, e)

h = torch.histogram(data, bins=6)
print("hist:", h.hist)
print("edges:", h.bin_edges.round(decimals=3))
counts, edges = torch.histogram(data, bins=4, range=(-2.0, 2.0))
print(counts, edges)
edges_t = torch.tensor([-4.0, -1.0, 0.0, 0.5, 1.0, 4.0])
h2 = torch.histogram(data, bins=edges_t, density=True)
print("density:", h2.hist.round(decimals=5))
print("integrates to 1:", f"{(h2.hist * edges_t.diff()).sum().item():.4f}")
w = torch.linspace(0, 1, 200)
h3 = torch.histogram(data, bins=edges_t, weight=w)
print("weighted:", h3.hist.round(decimals=3))
h4 = torch.histogram(data, 3, weight=w, density=True)
print("weighted density:", h4.hist.round(decimals=4), h4.bin_edges.dtype)

# histogramdd
pts = torch.stack([torch.cos(torch.arange(50.0)), torch.sin(torch.arange(50.0) * 1.3)], dim=1)
hdd = torch.histogramdd(pts, bins=[3, 2])
print("histogramdd:", hdd.hist)
print([e.round(decimals=3) for e in hdd.bin_edges])

# bincount
labels = torch.tensor([0, 1, 1, 3, 3, 3, 6, 1])
print("bincount:", torch.bincount(labels))
print("minlength:", torch.bincount(labels, minlength=9))
wts = torch.tensor([0.5, 1.0, 1.0, 0.25, 0.25, 0.5, 2.0, 1.5])
print("weights:", torch.bincount(labels, weights=wts))
print("weights f64:", torch.bincount(labels, weights=wts.double()).dtype)
print("empty:", torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
try:
    torch.bincount(torch.tensor([1, -1]))
except RuntimeError as e:
    print(type(e).__name__, e)

# empirical CDF from histogram counts
c, e = torch.histogram(data, bins=10)
cdf = torch.cumsum(c, 0) / c.sum()
print("cdf:", cdf.round(decimals=3))
print("median bin:", torch.searchsorted(cdf, torch.tensor(0.5)).item())
