# Counting/binning drills: unique(return_counts, return_inverse), unique_consecutive, bincount
# with weights/minlength, histc, histogram, bucketize/searchsorted, repeat_interleave.
import torch

labels = torch.tensor([3, 1, 3, 0, 1, 3, 7, 0])
vals, inv, counts = torch.unique(labels, return_inverse=True, return_counts=True)
print(vals, inv, counts)
print(torch.equal(vals[inv], labels))
print(torch.unique(labels, sorted=True, return_counts=True))
print(labels.unique(dim=0))
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
print(torch.unique(rows, dim=0, return_inverse=True, return_counts=True))
print(torch.unique(rows, dim=1))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1, 3, 3]), return_counts=True, return_inverse=True))
print(torch.unique(torch.tensor([2.5, float("nan"), 2.5, -0.0, 0.0])))
print(torch.unique(torch.tensor([True, False, True])))

# bincount
print(torch.bincount(labels))
print(torch.bincount(labels, minlength=10))
print(torch.bincount(labels, weights=torch.linspace(0, 1, 8)))
print(torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
print(torch.bincount(labels, weights=torch.ones(8, dtype=torch.float64)).dtype, torch.bincount(labels).dtype)
for bad in [torch.tensor([-1, 2]), torch.tensor([[1, 2]]), torch.tensor([1.0, 2.0])]:
    try:
        torch.bincount(bad)
    except RuntimeError as e:
        print("RuntimeError", e)

# class frequency -> inverse-frequency weights
freq = torch.bincount(labels, minlength=8).float()
w = torch.where(freq > 0, freq.sum() / (freq * (freq > 0).sum()), torch.zeros(()))
print(w)

# histc / histogram
x = torch.sin(torch.arange(20.0))
print(torch.histc(x, bins=4, min=-1, max=1))
print(torch.histc(x, bins=5))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))
h = torch.histogram(x, bins=4)
print(h.hist, h.bin_edges)
h2 = torch.histogram(x, bins=torch.tensor([-1.0, 0.0, 0.5, 1.0]), weight=torch.ones(20) * 0.5)
print(h2)
print(torch.histogram(x, bins=3, range=(0.0, 1.0), density=True).hist)

# bucketize / searchsorted
boundaries = torch.tensor([0.0, 0.25, 0.5, 0.75])
v = torch.tensor([-0.1, 0.0, 0.3, 0.5, 0.99])
print(torch.bucketize(v, boundaries), torch.bucketize(v, boundaries, right=True))
print(torch.searchsorted(boundaries, v), torch.searchsorted(boundaries, v, right=True))
print(torch.searchsorted(boundaries, v, side="right"), torch.bucketize(v, boundaries, out_int32=True).dtype)
sorted_rows = torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
print(torch.searchsorted(sorted_rows, torch.tensor([[3, 6], [1, 9]])))
print(torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([2, 4]), sorter=torch.tensor([1, 2, 0])))
print(torch.bucketize(torch.tensor(0.3), boundaries))

# repeat_interleave
print(torch.repeat_interleave(torch.tensor([1, 2, 3]), 2))
print(torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 3]), dim=0))
print(torch.repeat_interleave(torch.tensor([2, 0, 3])))
print(torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2))
print(torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2, dim=1))
print(torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 1]), output_size=3))
# segment ids from lengths, then segment sum via index_add
lengths = torch.tensor([2, 3, 1])
seg = torch.repeat_interleave(torch.arange(len(lengths)), lengths)
print(seg, torch.zeros(3).index_add(0, seg, torch.arange(6.0)))
try:
    torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 2, 3]))
except RuntimeError as e:
    print("RuntimeError", e)
