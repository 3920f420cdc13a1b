# Cheat-sheet translations: np.histogram -> torch.histc, np.digitize -> torch.bucketize
# (right=True/False), np.isin -> torch.isin, np.clip with array bounds -> torch.clamp(min=tensor),
# np.where with scalars, np.count_nonzero, np.allclose/np.isclose with equal_nan.
import torch

data = torch.tensor([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.0, 4.0])
print(torch.histc(data, bins=4, min=0, max=4), torch.histc(data, bins=3))
print(torch.histc(torch.tensor([1., 1., 1.]), bins=2), torch.histc(data, bins=2, min=2, max=3))
print(data.histc(5, 0, 5).dtype, torch.histc(data.double(), 2).dtype, torch.histc(torch.tensor([-1., 9.]), 3, 0, 3))

edges = torch.tensor([1., 2., 3.])
q = torch.tensor([0.5, 1.0, 2.0, 2.5, 3.0, 3.5])
print(torch.bucketize(q, edges), torch.bucketize(q, edges, right=True))
print(torch.bucketize(q, edges, out_int32=True).dtype, torch.bucketize(torch.tensor([[1, 3], [2, 5]]), edges))
print(torch.bucketize(2.0, edges), torch.bucketize(2.0, edges, right=True), torch.searchsorted(edges, q, side="right"))
print(torch.searchsorted(edges, q, right=True), torch.bucketize(torch.tensor([float("nan"), -float("inf")]), edges))

ids = torch.tensor([3, 7, 1, 7, 9, 4])
print(torch.isin(ids, torch.tensor([7, 4])), torch.isin(ids, torch.tensor([7, 4]), invert=True))
print(torch.isin(ids, 7), torch.isin(3, ids), torch.isin(torch.tensor([[1, 2], [9, 0]]), ids))
print(torch.isin(torch.tensor([1., float("nan")]), torch.tensor([float("nan"), 1.])), torch.isin(ids, torch.tensor([3.0])))
print(ids[~torch.isin(ids, torch.tensor([7, 9]))], torch.isin(ids, torch.tensor([], dtype=torch.long)).any())

x = torch.tensor([[-3., 0.5, 4.], [2., -1., 10.]])
lo = torch.tensor([-1., 0., 1.])
hi = torch.tensor([1., 1., 5.])
print(torch.clamp(x, min=lo, max=hi), x.clamp(lo, hi), torch.clamp(x, max=hi), x.clip(min=lo))
print(torch.clamp(x, min=torch.tensor(0.)), torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2]), max=torch.tensor(6)))
print(torch.clamp(x, min=hi, max=lo), torch.clamp(torch.tensor([1, 5, 9]), min=2.5), torch.clamp(x, 0, float("nan")))
xg = x.clone().requires_grad_()
cl = xg.clamp(min=lo, max=hi)
cl.sum().backward()
print(cl.grad_fn.name(), xg.grad)
lo_g = lo.clone().requires_grad_()
cl2 = torch.clamp(x, min=lo_g)
cl2.sum().backward()
print(cl2.grad_fn.name(), lo_g.grad)

print(torch.where(x > 0, x, 0.), torch.where(x > 0, 1, -1), torch.where(x > 0, 1.5, 0).dtype, torch.where(x > 0, 2, x))
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5), torch.where(x > 100, x, torch.tensor(7)).dtype)
print(torch.count_nonzero(x), torch.count_nonzero(x > 0, dim=1), torch.count_nonzero(x, dim=(0, 1)), x.count_nonzero(-1))
print(torch.count_nonzero(torch.zeros(0, 3), 0), torch.count_nonzero(torch.tensor([float("nan"), 0.])))

a = torch.tensor([1.0, float("nan"), 3.0])
bb = torch.tensor([1.0 + 1e-9, float("nan"), 3.1])
print(torch.isclose(a, bb), torch.isclose(a, bb, equal_nan=True), torch.isclose(a, bb, rtol=0.05, equal_nan=True))
print(torch.allclose(a[:1], bb[:1]), torch.allclose(a, a), torch.allclose(a, a, equal_nan=True))
print(torch.isclose(torch.tensor([float("inf"), 1]), torch.tensor([float("inf"), 2])), torch.isclose(torch.tensor([5]), torch.tensor([6]), atol=1))
print(torch.allclose(torch.tensor([1e-10]), torch.tensor([0.])), torch.allclose(torch.tensor([1.]), torch.tensor([1., 1.])))

for bad in [lambda: torch.histc(torch.tensor([1, 2]), bins=2), lambda: torch.histc(data, bins=0),
            lambda: torch.histc(data, bins=3, min=5, max=1), lambda: torch.bucketize(q, torch.tensor([[1., 2.]])),
            lambda: torch.clamp(x), lambda: torch.allclose(a, torch.tensor([1, 2, 3])),
            lambda: torch.clamp(x, min=torch.tensor([1., 2.])), lambda: torch.isclose(a, bb, rtol=-1),
            lambda: torch.where(x > 0, x), lambda: torch.isclose(a, a.double()),
            lambda: torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2]), max=6)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
