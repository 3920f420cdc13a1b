# Drill set: run-length encoding with unique_consecutive, NaN-aware reductions (np.nansum ->
# torch.nansum), running max/min with indices, and logcumsumexp -- values, dtypes and grads.
import torch

s = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1])
print(torch.unique_consecutive(s))
vals, counts = torch.unique_consecutive(s, return_counts=True)
print(vals, counts, torch.repeat_interleave(vals, counts))
out, inv, cnt = s.unique_consecutive(return_inverse=True, return_counts=True)
print(out, inv, cnt, inv.dtype, cnt.dtype)
m = torch.tensor([[1, 1, 0], [1, 1, 0], [2, 2, 2], [1, 1, 0]])
print(torch.unique_consecutive(m, dim=0), torch.unique_consecutive(m, return_inverse=True, dim=0)[1])
print(torch.unique_consecutive(m, dim=1, return_counts=True), torch.unique_consecutive(torch.tensor([])))
print(torch.unique_consecutive(torch.tensor([0.5, 0.5, float("nan"), float("nan")])))

x = torch.tensor([[1., float("nan"), 3.], [float("nan"), float("nan"), 6.]])
print(torch.nansum(x), x.nansum(dim=0), torch.nansum(x, 1, keepdim=True))
print(torch.nanmean(x), x.nanmean(0), torch.nanmean(x, dim=1))
print(torch.nanmedian(x), x.nanmedian(dim=1), torch.nanmedian(torch.tensor([float("nan")] * 2)))
print(torch.nanmedian(torch.tensor([4., 1., float("nan"), 2.]), 0, keepdim=True))
print(torch.nansum(torch.tensor([1, 2, 3])), torch.nansum(torch.tensor([], dtype=torch.float64)))
print(torch.nansum(x, dtype=torch.float64), torch.nan_to_num(x, nan=-1.0).sum(0))
xg = torch.tensor([2., float("nan"), 4.], requires_grad=True)
ns = torch.nansum(xg * 3)
ns.backward()
print(ns, ns.grad_fn.name(), xg.grad)
xg.grad = None
nm = torch.nanmean(xg)
nm.backward()
print(nm, xg.grad)
xg.grad = None
nmed = xg.nanmedian()
nmed.backward()
print(nmed, nmed.grad_fn.name(), xg.grad)

v = torch.tensor([[3., 1., 4., 1.], [5., 9., 2., 6.]])
print(torch.cummax(v, dim=1), torch.cummin(v, dim=0))
print(torch.cummax(torch.tensor([1., 3., 3., 2., 3.]), 0).indices, torch.cummin(torch.tensor([2, 1, 1, 0, 0]), 0).indices)
print(torch.cummax(torch.tensor([1., float("nan"), 5.]), 0), torch.cummin(torch.tensor([True, False, True]), 0))
print(torch.logcumsumexp(v, dim=1), torch.logcumsumexp(torch.tensor([-float("inf"), 0., -float("inf")]), 0))
print(torch.logcumsumexp(torch.tensor([1000., 1000.]), 0), torch.logcumsumexp(torch.tensor([1., 2.], dtype=torch.float64), 0))
vg = v.clone().requires_grad_()
cmn = torch.cummin(vg, dim=1)
(cmn.values * torch.tensor([1., 10., 100., 1000.])).sum().backward()
print(cmn.values.grad_fn.name(), vg.grad)
vg.grad = None
lse = torch.logcumsumexp(vg, 0)
lse.sum().backward()
print(lse, lse.grad_fn.name(), vg.grad)
tg = torch.tensor([2., 2., 1., 3.], requires_grad=True)
cm = tg.cummax(0)
cm.values.sum().backward()
print(cm, tg.grad)

for bad in [lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0), lambda: torch.nanmean(torch.tensor([1, 2])),
            lambda: torch.unique_consecutive(m, dim=2), lambda: torch.nansum(torch.tensor([True])),
            lambda: torch.cummin(v, 2), lambda: torch.logcumsumexp(v)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)

# "best validation loss so far" with a diverged (NaN) epoch in the history
history = torch.tensor([0.9, 0.7, float("nan"), 0.5, float("nan"), 0.4])
best = torch.cummin(history, 0)
print(best.values, best.indices)
print(torch.cummax(torch.tensor([1., float("nan"), 2., float("nan"), 0.]), 0).indices)
hg = history.clone().requires_grad_()
torch.cummin(hg, 0).values.sum().backward()
print(hg.grad)
