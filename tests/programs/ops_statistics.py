# Descriptive statistics the way data-science answers compute them: std/var with unbiased and
# correction, std_mean/var_mean, median/mode/quantile/kthvalue, histc, prod, all/any/count_nonzero.
import torch

data = torch.tensor([[2., 4., 4., 4.], [5., 5., 7., 9.]])
print(data.std(), data.std(unbiased=False), data.var(dim=1), data.var(1, unbiased=False), data.std(0, keepdim=True))
print(torch.std(data, dim=1, correction=0), torch.var(data, correction=2), data.var(dim=(0, 1), correction=1))
print(torch.std_mean(data), torch.var_mean(data, dim=1), torch.std_mean(data, dim=0, unbiased=False))
sm = torch.var_mean(data, 1, correction=0, keepdim=True)
print(type(sm).__name__, len(sm), sm[0].shape, torch.tensor([3.]).std(), torch.tensor([3.]).var(correction=0))

v = torch.tensor([3., 1., 4., 1., 5., 9., 2., 6.])
print(v.median(), torch.median(v.view(2, 4), dim=1), v.view(2, 4).median(0, keepdim=True).values)
print(torch.mode(torch.tensor([1, 2, 2, 3, 3])), torch.tensor([[1, 1, 2], [3, 2, 2]]).mode(dim=1))
print(torch.quantile(v, 0.5), v.quantile(torch.tensor([0.25, 0.75])), torch.quantile(v.view(2, 4), 0.5, dim=1, keepdim=True))
for interp in ["linear", "lower", "higher", "nearest", "midpoint"]:
    print(interp, torch.quantile(v, 0.4, interpolation=interp))
print(torch.kthvalue(v, 3), v.view(2, 4).kthvalue(2, dim=1), torch.kthvalue(v, 1, 0, True))
print(torch.histc(v, bins=4), torch.histc(v, bins=3, min=0, max=6), torch.histc(torch.tensor([1., 1., 1.]), bins=2))
print(torch.bucketize(v, torch.tensor([2., 5.])), torch.searchsorted(torch.tensor([1., 3., 5.]), torch.tensor([0., 3., 6.])))
print(v.prod(), torch.prod(v.view(2, 4), 1), torch.tensor([1, 2, 3, 4]).prod(), torch.tensor([True, True]).prod(), torch.prod(v, 0, keepdim=True, dtype=torch.float64))
b = torch.tensor([[True, False, True], [True, True, True]])
print(b.all(), b.any(), b.all(dim=1), torch.any(b, 0), torch.all(torch.tensor([1, 2, 0])), torch.any(torch.tensor([0., 0.5])))
print(torch.tensor([]).all(), torch.tensor([]).any(), b.all(1, keepdim=True), torch.tensor([1, 2]).all().dtype)
print(torch.tensor([1, 2], dtype=torch.uint8).all(), torch.tensor([0, 3], dtype=torch.uint8).any(dim=0))
print(torch.count_nonzero(b), torch.count_nonzero(b, dim=1), torch.count_nonzero(data - 4, dim=(0, 1)), (data > 4).sum(1))
print(torch.tensor([1, 2, 3]).float().mean(), torch.mean(torch.tensor([1., 2.]), 0, keepdim=True), data.mean(dtype=torch.float64), data.sum(1).div(4))

w = torch.tensor([1., 2., 4., 7.], requires_grad=True)
s = w.std()
s.backward()
print(s, s.grad_fn.name(), w.grad)
w.grad = None
vv, mm = torch.var_mean(w, correction=0)
(vv + mm).backward()
print(vv, mm, vv.grad_fn.name(), w.grad)
w.grad = None
md = w.median()
md.backward()
print(md, md.grad_fn.name(), w.grad)
w.grad = None
q = torch.quantile(w, 0.5)
q.backward()
print(q, q.grad_fn.name(), w.grad)
w.grad = None
kv = w.kthvalue(3)
kv.values.backward()
print(kv, kv.values.grad_fn.name(), w.grad)
w.grad = None
t = torch.tensor([2., 2., 3., 5.], requires_grad=True)
t.median().backward()
print(t.grad)
z = torch.tensor([2., 0., 3.], requires_grad=True)
pz = z.prod()
pz.backward()
print(pz, pz.grad_fn.name(), z.grad)

for bad in [lambda: torch.quantile(v, 1.5), lambda: torch.mean(torch.tensor([1, 2])), lambda: torch.kthvalue(v, 10),
            lambda: torch.tensor([1, 2]).std(), lambda: torch.quantile(torch.tensor([1, 2]), 0.5)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
