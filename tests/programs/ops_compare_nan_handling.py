# Comparing tensors (allclose / isclose / equal / eq) and living with NaN and inf:
# nan_to_num, isnan/isinf/isfinite/isposinf/isneginf, nanmean/nansum/nanmedian, and NaN gradients.
import torch

a = torch.tensor([1.0, 2.0, float("nan"), float("inf")])
b = torch.tensor([1.0 + 1e-7, 2.001, float("nan"), float("inf")])
print(torch.allclose(a[:2], b[:2]), torch.allclose(a[:2], b[:2], atol=1e-2), torch.allclose(a, b, equal_nan=True, atol=1e-2))
print(torch.isclose(a, b), torch.isclose(a, b, rtol=0, atol=0.01, equal_nan=True), a.isclose(b, atol=1e-2))
print(torch.equal(a, a), torch.equal(a[:2], a[:2].clone()), torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.])))
print(torch.equal(torch.ones(2), torch.ones(3)), a == a, a.eq(b), a.ne(a), torch.tensor([1, 2]).eq(2))
print(torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])), torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.000001])))

x = torch.tensor([float("nan"), -float("inf"), float("inf"), -1.5, 0.0, 3.0])
print(x.isnan(), torch.isinf(x), torch.isfinite(x), torch.isposinf(x), x.isneginf(), torch.isreal(x))
print(torch.nan_to_num(x), x.nan_to_num(nan=0.0, posinf=100.0, neginf=-100.0), torch.nan_to_num(x, nan=-1.0))
print(torch.nan_to_num(x.double()), torch.nan_to_num(torch.tensor([1, 2])), x.isnan().any(), x.isnan().sum().item())
print(x.sign(), x.abs(), x.clamp(-1, 1), torch.relu(x))
print(x[~x.isnan()], x[torch.isfinite(x)].mean(), torch.where(torch.isnan(x), torch.zeros_like(x), x))
y = torch.tensor([[1., float("nan"), 3.], [float("nan"), float("nan"), 6.]])
print(y.nansum(), torch.nansum(y, dim=1), y.nanmean(), torch.nanmean(y, dim=0), y.nanmean(dim=1, keepdim=True))
print(y.sum(), y.mean(), y.max(), y.median(), y.median(dim=1), y.max(dim=1))
print(torch.nanmedian(y), y.nanmedian(dim=1))
print(torch.nanquantile(y, 0.5, dim=1), torch.tensor([1, 2]).nansum(), torch.fmax(y, torch.zeros(3)), torch.fmin(y, torch.ones(3)))
print(torch.maximum(y, torch.zeros(3)), torch.minimum(torch.tensor([float("nan"), 1.]), torch.tensor([0., 0.])))
print(torch.tensor(0.) / 0., torch.tensor([1., -1.]) / 0, torch.log(torch.tensor([-1., 0.])), torch.sqrt(torch.tensor(-4.)))
print(torch.tensor(float("nan")).item() != torch.tensor(float("nan")).item(), torch.tensor([1, 2]) / torch.tensor([0, 0]))

w = torch.tensor([1.0, 0.0, 4.0], requires_grad=True)
s = torch.sqrt(w)
s.sum().backward()
print(s, w.grad)
w.grad = None
safe = torch.where(w > 0, torch.sqrt(w), torch.zeros_like(w))
safe.sum().backward()
print(safe, w.grad)
w.grad = None
v = torch.nan_to_num(torch.log(w), neginf=-10.)
v.sum().backward()
print(v, v.grad_fn.name(), w.grad)
w.grad = None
nm = torch.nanmean(torch.tensor([1., float("nan"), 1.]) * w)
nm.backward()
print(nm, nm.grad_fn.name(), w.grad)
w.grad = None
ns = torch.nansum(w / torch.tensor([1., 0., 2.]) * torch.tensor([1., 0., 1.]))
ns.backward()
print(ns, w.grad)

try:
    torch.allclose(torch.tensor([1, 2]), torch.tensor([1., 2.]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.isclose(torch.ones(2), torch.ones(3))
except RuntimeError as e:
    print(type(e).__name__, e)
