# Binning continuous features for a data report: torch.histogram (bins int / tensor edges, range,
# weight, density), histc on integer-valued floats, bucketize vs searchsorted with side/sorter.
import torch

ages = torch.tensor([23.0, 35.0, 47.0, 51.0, 62.0, 18.0, 35.0, 70.0, 29.0, 44.0])
hist, edges = torch.histogram(ages, bins=5)
print(hist, edges)
hist, edges = torch.histogram(ages, bins=4, range=(20.0, 60.0))
print(hist, edges)
w = torch.linspace(0.5, 2.0, 10)
hist, edges = torch.histogram(ages, bins=torch.tensor([0.0, 30.0, 45.0, 100.0]), weight=w)
print(hist, edges)
hist, edges = torch.histogram(ages, bins=3, density=True)
print(hist, edges)
print((hist * edges.diff()).sum())
r = torch.histogram(ages.double(), bins=2)
print(r.hist.dtype, r.bin_edges.dtype, type(r).__name__)

# histc: values at the top edge go into the last bin, out of range are dropped
print(torch.histc(torch.tensor([1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 9.0]), bins=4, min=1, max=5))
print(torch.histc(torch.tensor([2.0, 2.0, 2.0]), bins=3))
print(torch.histc(torch.tensor([0.0, 1.0, 1.0]), bins=2, min=0, max=0))

# bucketize: right=False/True with values equal to boundaries
boundaries = torch.tensor([18.0, 30.0, 45.0, 65.0])
print(torch.bucketize(ages, boundaries))
print(torch.bucketize(ages, boundaries, right=True))
print(torch.bucketize(ages, boundaries, out_int32=True).dtype)
print(torch.bucketize(torch.tensor(35.0), boundaries))
print(torch.bucketize(45, boundaries))

# searchsorted with unsorted sequence + sorter, side='right', batched rows
seq = torch.tensor([5.0, 1.0, 9.0, 3.0, 7.0])
sorter = torch.argsort(seq)
print(sorter)
print(torch.searchsorted(seq, torch.tensor([3.0, 6.0, 9.0, 0.0]), sorter=sorter))
print(torch.searchsorted(seq, torch.tensor([3.0, 6.0, 9.0, 0.0]), side="right", sorter=sorter))
rows = torch.tensor([[1.0, 3.0, 5.0, 7.0], [2.0, 4.0, 6.0, 8.0]])
q = torch.tensor([[3.0, 8.0], [2.0, 9.0]])
print(torch.searchsorted(rows, q), torch.searchsorted(rows, q, right=True))
print(torch.searchsorted(rows[0], 5.0), torch.searchsorted(rows[0], 5.0, side="right"))
try:
    torch.searchsorted(rows, q, side="left", right=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.searchsorted(rows, torch.tensor([1.0, 2.0, 3.0]))
except Exception as e:
    print(type(e).__name__, e)

# 2-d binning of (age, score) pairs and the mistakes users make with explicit edges
pairs = torch.stack([ages, torch.linspace(0.0, 1.0, 10)], dim=1)
h2, (e_age, e_score) = torch.histogramdd(pairs, bins=[3, 2], density=True)
print(h2, e_age, e_score)
h3 = torch.histogramdd(pairs, bins=[torch.tensor([0.0, 40.0, 80.0]), torch.tensor([0.0, 0.5, 1.0])],
                       weight=torch.arange(1.0, 11.0))
print(h3.hist)
try:
    torch.histogram(ages, torch.tensor([0.0, 50.0, 100.0]), range=(0.0, 100.0))
except Exception as e:
    print(type(e).__name__, e)
