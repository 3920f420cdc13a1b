# Counting and ranking: stable sort with ties, argsort for ranks, unique with inverse/counts/dim,
# bincount with weights and minlength, histc, cumsum/cumprod/cummax, kthvalue/median,
# and the binning functions searchsorted/bucketize/diff.
import torch

scores = torch.tensor([3, 1, 2, 3, 1, 5, 2, 3])
v, i = torch.sort(scores, stable=True)
print(v, i)
v, i = scores.sort(descending=True, stable=True)
print(v, i)
print(torch.argsort(scores, stable=True), torch.argsort(torch.argsort(torch.tensor([0.3, 0.1, 0.9, 0.5]))))
m = torch.tensor([[0.3, -1.0, 2.5], [1.5, 0.2, -0.7]])
print(m.sort(dim=0), m.sort(dim=-1, descending=True).indices, m.argsort(dim=1, descending=True))
print(torch.sort(torch.tensor([2.0, float("nan"), -1.0, float("inf")])))

u = torch.tensor([4, 1, 4, 2, 1, 1, 7])
print(torch.unique(u), u.unique(sorted=True, return_counts=True))
vals, inverse = torch.unique(u, return_inverse=True)
print(vals, inverse, vals[inverse])
vals, inverse, counts = torch.unique(u, return_inverse=True, return_counts=True)
print(counts, counts[inverse])
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
print(torch.unique(rows, dim=0), torch.unique(rows, dim=0, return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([[2.5, 1.0], [1.0, 2.5]])), torch.unique(torch.tensor([True, False, True])))

labels = torch.tensor([0, 2, 2, 1, 0, 2])
print(torch.bincount(labels), labels.bincount(minlength=5), torch.bincount(torch.tensor([], dtype=torch.long)))
print(torch.bincount(labels, weights=torch.tensor([0.5, 1.0, 1.0, 2.0, 0.25, 1.0])))
print(torch.bincount(labels, weights=torch.tensor([1, 2, 3, 4, 5, 6])).dtype)
class_weights = labels.numel() / (3 * torch.bincount(labels).float())
print(class_weights)
try:
    torch.bincount(torch.tensor([1, -1]))
except RuntimeError as e:
    print("RuntimeError:", e)

data = torch.tensor([0.1, 0.4, 0.45, 0.8, 1.0, 2.0, -0.5, 0.6])
print(torch.histc(data, bins=4, min=0, max=1), torch.histc(data, bins=5))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3), torch.histc(torch.ones(3), bins=2))

x = torch.tensor([[1.0, 3.0, 2.0, 5.0], [4.0, -1.0, 0.5, 2.0]])
print(x.cumsum(1), torch.cumsum(x, dim=0), x.cumprod(1), torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0))
print(torch.cummax(x, dim=1), x.cumsum(-1).flip(-1))
print(torch.kthvalue(x, 2, dim=1), torch.median(x), x.median(dim=1))
print(torch.count_nonzero(torch.tensor([[0, 1, 2], [0, 0, 3]]), dim=0), torch.tensor([0.0, 1.5]).count_nonzero())

# running mean of a sequence, with cumsum
seq = torch.tensor([2.0, 4.0, 6.0, 8.0])
print(seq.cumsum(0) / torch.arange(1, 5))

w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
w.cumprod(0).sum().backward()
print(w.grad)
w.grad = None
torch.cummax(w * torch.tensor([1.0, -1.0, 1.0, -1.0]), 0).values.sum().backward()
print(w.grad)

edges = torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0])
print(torch.bucketize(data, edges), torch.bucketize(data, edges, right=True))
print(torch.searchsorted(edges, torch.tensor([0.25, 0.3, 1.5])), torch.searchsorted(edges, torch.tensor([0.25]), right=True))
print(torch.diff(seq), torch.diff(x, dim=0), torch.diff(seq, n=2), torch.diff(seq, prepend=torch.tensor([0.0])))
