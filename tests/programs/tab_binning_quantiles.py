# Binning a continuous feature like pandas.cut/qcut: quantile edges, bucketize, histc/histogram,
# per-group statistics via median/quantile with dim, and value counts with unique.
import torch

age = torch.tensor([23., 35., 47., 51., 62., 29., 33., 41., 58., 70., 19., 45.])
edges = torch.quantile(age, torch.tensor([0.25, 0.5, 0.75]))
print(edges, edges.dtype)
bins = torch.bucketize(age, edges)
print(bins, bins.dtype)
print(torch.bucketize(age, edges, right=True), torch.bucketize(age, edges, out_int32=True).dtype)
print(torch.bucketize(torch.tensor([35., 47.]), torch.tensor([35., 47.])), torch.bucketize(torch.tensor([35., 47.]), torch.tensor([35., 47.]), right=True))
print(torch.bucketize(5, torch.tensor([1, 3, 7])), torch.bucketize(torch.tensor([[1, 8], [3, 0]]), torch.tensor([1, 3, 7])))
print(torch.searchsorted(edges, age), torch.searchsorted(edges, age, side="right"))
cut = torch.tensor([0., 30., 50., 100.])
groups = torch.bucketize(age, cut) - 1
print(groups)
vals, counts = torch.unique(groups, return_counts=True)
print(vals, counts)
print(torch.unique(groups, sorted=True, return_inverse=True))
for g in vals.tolist():
    sel = age[groups == g]
    print(f"group {g}: n={sel.numel()} mean={sel.mean():.2f} median={sel.median()} q90={torch.quantile(sel, 0.9):.2f}")

print(torch.histc(age, bins=5), torch.histc(age, bins=5, min=0, max=100))
h = torch.histogram(age, bins=4)
print(h)
print(h.hist, h.bin_edges, type(h).__name__)
hist, edges2 = torch.histogram(age, bins=torch.tensor([0., 30., 50., 100.]))
print(hist, edges2)
print(torch.histogram(age, bins=3, range=(20., 50.), density=True))
print(torch.histogram(age, bins=2, weight=torch.ones(12) * 0.5).hist)
for bad in [torch.tensor([1.0, float("nan"), 3.0]), torch.tensor([1.0, float("inf")])]:
    try:
        torch.histc(bad, bins=3)
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    torch.histc(age.long(), bins=3)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.histogram(age.long(), bins=3)
except RuntimeError as e:
    print(type(e).__name__, e)

M = age.view(3, 4)
print(M)
print(M.median(dim=1), M.median(dim=0).values)
print(torch.quantile(M, 0.5, dim=1), torch.quantile(M, torch.tensor([0.1, 0.9]), dim=0))
print(torch.quantile(M, 0.5, dim=1, keepdim=True).shape, torch.quantile(M, torch.tensor([0.5]), dim=0, keepdim=True).shape)
print(M.quantile(0.5), M.median(), M.sort(dim=1).values)
iqr = torch.quantile(age, 0.75) - torch.quantile(age, 0.25)
lo, hi = torch.quantile(age, 0.25) - 1.5 * iqr, torch.quantile(age, 0.75) + 1.5 * iqr
print(iqr, lo, hi, ((age < lo) | (age > hi)).sum())
for bad in [1.5, torch.tensor([0.5, -0.1])]:
    try:
        torch.quantile(age, bad)
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    torch.quantile(age.long(), 0.5)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.quantile(age, 0.5, interpolation="cubic")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bucketize(age, torch.tensor([[1., 2.]]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.quantile(age.double(), 0.33), torch.median(torch.tensor([1., 2., 3., 4.])), torch.tensor([]).median())
x = age.clone().requires_grad_()
torch.quantile(x, 0.3).backward()
print(x.grad)
x.grad = None
x.median().backward()
print(x.grad)
x.grad = None
q = torch.quantile(x.view(3, 4), torch.tensor([0.25, 0.75]))
q.sum().backward()
print(q, q.grad_fn.name(), x.grad.sum())
area = torch.trapezoid(x.view(3, 4))
print(area, area.grad_fn.name(), torch.trapezoid(x.view(3, 4), dx=0.5).grad_fn.name())
# joint histogram of two features (age vs. income bracket)
pairs = torch.stack([age, torch.linspace(20., 80., 12)], dim=1)
joint = torch.histogramdd(pairs, bins=[2, 3])
print(joint.hist, joint.bin_edges)
