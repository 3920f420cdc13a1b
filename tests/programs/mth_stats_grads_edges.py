# Statistics inside a loss (robust regression, variance penalties): gradients of median, quantile,
# var/std with correction, cov/corrcoef, plus dtype/edge behaviour of the reductions.
import torch

torch.set_printoptions(precision=4)


def show(label, fn):
    try:
        out = fn()
        print(f"{label:24s}", out)
    except Exception as e:  # noqa: BLE001
        print(f"{label:24s}", type(e).__name__ + ":", e)


x = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0], requires_grad=True)
torch.median(x).backward()
print("median grad", x.grad)
x.grad = None
torch.quantile(x, 0.3).backward()
print("quantile linear grad", x.grad)
x.grad = None
torch.quantile(x, torch.tensor([0.25, 0.75]), interpolation="midpoint").sum().backward()
print("quantile midpoint grad", x.grad)
x.grad = None
x.var(correction=0).backward()
print("var grad", x.grad)
x.grad = None
x.std().backward()
print("std grad", x.grad)
x.grad = None
torch.nanmedian(x).backward()
print("nanmedian grad", x.grad)
x.grad = None
x.max().backward()
print("max grad", x.grad)
x.grad = None
vals, idx = x.cummax(0)
vals.sum().backward()
print("cummax grad", x.grad)
x.grad = None
m = x.view(2, 4)
torch.cov(m).sum().backward()
print("cov grad", x.grad)
x.grad = None
torch.corrcoef(m)[0, 1].backward()
print("corrcoef grad", x.grad)
x.grad = None
r = torch.mode(torch.tensor([1.0, 2.0, 2.0]).requires_grad_())
print("mode", r.values, r.values.grad_fn.name())
print("median grad_fn", torch.median(x).grad_fn.name(), torch.median(x.view(2, 4), dim=1).values.grad_fn.name())
print("quantile grad_fn", torch.quantile(x, 0.5).grad_fn is not None)
print("var grad_fn", x.var().grad_fn.name(), x.std(correction=0).grad_fn.name())

ints = torch.tensor([4, 8, 15, 16, 23, 42])
show("int median", lambda: ints.median())
show("int mean", lambda: ints.mean())
show("int var", lambda: ints.var())
show("int std", lambda: ints.std())
show("bool median", lambda: torch.tensor([True, False, True]).median())
show("int cov", lambda: torch.cov(ints).dtype)
show("int corrcoef", lambda: torch.corrcoef(torch.stack([ints, ints.flip(0)])))
show("int quantile", lambda: torch.quantile(ints.float(), 0.5))
show("uint8 mode", lambda: torch.mode(torch.tensor([3, 3, 200], dtype=torch.uint8)))
show("float16 median", lambda: torch.tensor([1.5, 0.5, 2.5], dtype=torch.float16).median())
show("empty var", lambda: torch.tensor([]).var())
show("empty mean", lambda: torch.tensor([]).mean())
show("empty median dim", lambda: torch.ones(2, 0).median(dim=1))
show("empty quantile", lambda: torch.quantile(torch.tensor([]), 0.5))
show("empty mode", lambda: torch.mode(torch.tensor([])))
show("median out of range", lambda: x.median(dim=2))
show("var bad dim", lambda: x.var(dim=1))
show("quantile 2-D q", lambda: torch.quantile(x.detach(), torch.ones(2, 2) / 2))
show("histc grad", lambda: torch.histc(x, bins=3).requires_grad)
show("bincount big", lambda: torch.bincount(torch.tensor([2, 5]), minlength=-1))
