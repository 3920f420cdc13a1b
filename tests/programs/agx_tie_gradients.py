# Where does the gradient go when values tie? median/sort/topk/kthvalue/max(dim)/cummax/logsumexp,
# plus clamp at exact bounds, where() with nan/inf in the unused branch, and norms at zero.
import torch


def g(fn, values):
    x = torch.tensor(values, requires_grad=True)
    out = fn(x)
    out = out[0] if isinstance(out, tuple) else out
    (grad,) = torch.autograd.grad(out.sum(), x)
    return grad


ties = [2.0, 1.0, 2.0, 1.0, 2.0]
print("max dim", g(lambda x: x.max(dim=0), ties), g(lambda x: x.max(dim=0).values, ties))
print("min dim", g(lambda x: x.min(dim=0), ties))
print("max 2d", g(lambda x: x.view(2, 2).max(dim=1), [1.0, 1.0, 3.0, 3.0]))
print("argmax", torch.tensor(ties).argmax(), torch.tensor(ties).argmin(), torch.tensor(ties).max(0).indices)
print("median", g(torch.median, ties), g(torch.median, [1.0, 1.0, 1.0, 1.0]))
print("median dim", g(lambda x: x.median(dim=0), ties), torch.tensor(ties).median(0))
print("nanmedian", g(torch.nanmedian, [1.0, float("nan"), 3.0, 2.0]))
print("sort", g(lambda x: x.sort().values * torch.arange(1.0, 6.0), ties))
print("sort desc", g(lambda x: x.sort(descending=True).values * torch.arange(1.0, 6.0), ties))
print("sort stable", torch.tensor(ties).sort(stable=True))
print("topk smallest", g(lambda x: x.topk(3, largest=False).values * torch.tensor([1.0, 10.0, 100.0]), ties))
print("kthvalue", g(lambda x: x.kthvalue(2), ties), torch.tensor(ties).kthvalue(2))
print("mode", g(lambda x: x.mode(), ties), torch.tensor(ties).mode())
print("cummax", g(lambda x: x.cummax(0).values, [1.0, 3.0, 3.0, 2.0, 5.0]))
print("cummin", g(lambda x: x.cummin(0).values, [3.0, 1.0, 1.0, 2.0, 0.0]))
print("logsumexp", g(lambda x: torch.logsumexp(x, 0), [0.0, 0.0, 0.0, 0.0]))
print("amin", g(torch.amin, [1.0, 1.0, 2.0]), "aminmax", torch.aminmax(torch.tensor(ties)))
print("maximum self", g(lambda x: torch.maximum(x, x), [1.0, 2.0]))
print("max_pool", g(lambda x: torch.nn.functional.max_pool1d(x.view(1, 1, -1), 2), [1.0, 1.0, 2.0, 2.0]))
print("clamp bounds", g(lambda x: x.clamp(-1.0, 1.0), [-1.0, 1.0, 0.5, 2.0]))
print("clamp tensor", g(lambda x: torch.clamp(x, min=torch.tensor([0.0, 1.0]), max=torch.tensor([1.0, 1.0])), [0.0, 1.0]))
print("clamp_min_", g(lambda x: (x * 1).clamp_min_(0.5), [0.5, 0.4, 0.6]))
print("where nan", g(lambda x: torch.where(x > 0, x, x / 0.0), [-1.0, 1.0, 0.0]))
print("where inf", g(lambda x: torch.where(x > 0, torch.log(x), torch.zeros_like(x)), [0.0, 2.0]))
print("where safe", g(lambda x: torch.where(x > 0, torch.log(torch.where(x > 0, x, torch.ones_like(x))), torch.zeros_like(x)), [0.0, 2.0]))
print("masked_fill", g(lambda x: x.log().masked_fill(x <= 0, 0.0), [0.0, 2.0]))
print("nan_to_num", g(lambda x: torch.nan_to_num(x.sqrt(), nan=0.0), [-1.0, 4.0]))
print("abs 0", g(torch.abs, [0.0, -0.0]))
print("sqrt 0", g(torch.sqrt, [0.0]), "rsqrt 0", g(torch.rsqrt, [0.0]))
print("norm 0", g(lambda x: x.norm(), [0.0, 0.0]), g(lambda x: x.norm(p=1), [0.0, 0.0]), g(lambda x: x.norm(p=float("inf")), [1.0, -1.0]))
print("norm p3", g(lambda x: x.norm(p=3), [0.0, 0.0]), "dist", g(lambda x: torch.dist(x, torch.zeros(2)), [0.0, 0.0]))
print("cdist", g(lambda x: torch.cdist(x.view(1, 2), torch.tensor([[0.0, 0.0]])), [0.0, 0.0]))
print("pdist", g(lambda x: torch.pdist(x.view(2, 2)), [1.0, 1.0, 1.0, 1.0]))
print("std 1", g(lambda x: x.std(), [1.0]), "var 1", g(lambda x: x.var(correction=0), [3.0]))
print("prod zero", g(torch.prod, [0.0, 2.0, 3.0]), g(torch.prod, [0.0, 0.0, 3.0]))
print("cumprod zero", g(lambda x: x.cumprod(0), [2.0, 0.0, 3.0]))
