# F.pad in its four modes, F.one_hot corner cases, and torch.bucketize / searchsorted
# as used for binning continuous features and looking up schedule boundaries.
import torch
import torch.nn.functional as F

x = torch.arange(1., 7.).view(1, 2, 3)
print(F.pad(x, (1, 2)))
print(F.pad(x, (1, 1, 1, 0), value=-1.0))
print(F.pad(x, (2, 1), mode="reflect"))
print(F.pad(x, (2, 2), mode="replicate"))
print(F.pad(x, (1, 3), mode="circular"))
img = torch.arange(9.).view(1, 1, 3, 3)
print(F.pad(img, (1, 1, 1, 1), mode="reflect")[0, 0])
print(F.pad(img, (0, 1, 2, 0), mode="replicate")[0, 0])
print(F.pad(x, (-1, 1)))
print(F.pad(torch.arange(4).view(2, 2), (1, 1), value=7), F.pad(torch.ones(2, dtype=torch.bool), (1, 0)))
try:
    F.pad(x, (3, 0), mode="reflect")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.pad(x, (1,))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
g = torch.arange(1., 4., requires_grad=True)
F.pad(g.view(1, 1, 3), (2, 2), mode="reflect").sum().backward()
print(g.grad)

labels = torch.tensor([0, 2, 1, 2])
print(F.one_hot(labels), F.one_hot(labels).dtype)
print(F.one_hot(labels, num_classes=5).float().sum(0))
print(F.one_hot(torch.tensor([[0, 1], [1, 0]]), 3).shape)
print(F.one_hot(torch.arange(0), 4).shape)
for bad in (torch.tensor([0, 3]), torch.tensor([-1, 0]), torch.tensor([0.0, 1.0])):
    try:
        F.one_hot(bad, 3)
    except RuntimeError as e:
        print(type(e).__name__, e)

boundaries = torch.tensor([1, 3, 5, 7, 9])
v = torch.tensor([[3, 6, 9], [3, 6, 9]])
print(torch.bucketize(v, boundaries))
print(torch.bucketize(v, boundaries, right=True))
print(torch.bucketize(torch.tensor([0.5, 1.0, 10.0]), boundaries.float(), out_int32=True))
print(torch.bucketize(4, boundaries), torch.bucketize(torch.tensor(4.5), boundaries))
seq = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
vals = torch.tensor([[3, 6, 9], [3, 6, 9]])
print(torch.searchsorted(seq, vals))
print(torch.searchsorted(seq, vals, right=True), torch.searchsorted(seq, vals, side="right").dtype)
unsorted = torch.tensor([9., 1., 5., 3.])
sorter = torch.argsort(unsorted)
print(torch.searchsorted(unsorted, torch.tensor([4., 9.5]), sorter=sorter))
cdf = torch.cumsum(torch.tensor([0.1, 0.2, 0.3, 0.4]), 0)
print(cdf, torch.searchsorted(cdf, torch.tensor([0.05, 0.3, 0.95])))
try:
    torch.searchsorted(seq, torch.tensor([1, 2, 3]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.searchsorted(seq, vals, side="middle")
except RuntimeError as e:
    print(type(e).__name__, e)
