# Rounding (round with decimals, half-to-even, floor/ceil/trunc/frac/sign) and the fused pointwise
# helpers optimizers are written with: lerp, addcmul, addcdiv, hypot, logaddexp, xlogy -- grads too.
import torch

x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -3.7])
print(torch.round(x), x.floor(), x.ceil(), x.trunc(), x.frac(), x.sign(), torch.sgn(x), x.fix())
p = torch.tensor([3.14159, 2.71828, -1.23456, 1234.5678])
print(torch.round(p, decimals=2), p.round(decimals=3), torch.round(p, decimals=-1), torch.round(p, decimals=-2))
ints = torch.tensor([-7, 0, 5])
print(ints.sign(), ints.floor(), ints.round(), torch.ceil(ints).dtype, ints.abs(), ints.neg())
print(torch.signbit(torch.tensor([-0.0, 0.0, -1.0, 2.0])), torch.copysign(torch.tensor([1., 2.]), torch.tensor([-0.0, 3.])))
print(torch.tensor(2.5).round(), torch.tensor(-0.4).round(), torch.floor_divide(torch.tensor([7, -7]), 2), torch.tensor([7., -7.]) // 2)
print(torch.fmod(torch.tensor([7., -7.]), 3), torch.remainder(torch.tensor([7., -7.]), 3), torch.tensor([-7, 7]) % 3)

start, end = torch.tensor([0., 10.]), torch.tensor([10., 20.])
print(torch.lerp(start, end, 0.5), start.lerp(end, torch.tensor([0.1, 0.9])), torch.lerp(start, end, 1.5))
t = torch.ones(3)
print(torch.addcmul(t, torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.]), value=0.5), t.addcdiv(torch.tensor([1., 2., 3.]), torch.tensor([2., 4., 6.]), value=-1))
ema = torch.zeros(2)
for g in [torch.tensor([1., 2.]), torch.tensor([3., 4.])]:
    ema.mul_(0.9).add_(g, alpha=0.1)
sq = torch.zeros(2).addcmul_(ema, ema, value=0.01)
print(ema, sq, torch.zeros(2).lerp_(torch.tensor([4., 8.]), 0.25))
print(torch.hypot(torch.tensor([3., 5.]), torch.tensor([4., 12.])), torch.logaddexp(torch.tensor([0., 100.]), torch.tensor([0., 100.])), torch.logaddexp2(torch.tensor([1.]), torch.tensor([1.])))
print(torch.xlogy(torch.tensor([0., 0., 2.]), torch.tensor([0., 5., 3.])), torch.special.xlogy(torch.tensor(0.), torch.tensor(float("nan"))), torch.special.xlog1py(torch.tensor([0., 1.]), torch.tensor([-1., 1.])))
print(torch.logaddexp(torch.tensor(-float("inf")), torch.tensor(-float("inf"))), torch.hypot(torch.tensor(1e30), torch.tensor(1e30)))

w = torch.tensor([-1.6, -0.4, 0.5, 2.3], requires_grad=True)
for name in ["round", "floor", "ceil", "trunc", "frac", "sign"]:
    out = getattr(torch, name)(w * 2)
    out.sum().backward()
    print(name, out.grad_fn.name(), w.grad)
    w.grad = None
r2 = torch.round(w, decimals=1)
r2.sum().backward()
print(r2, r2.grad_fn.name(), w.grad)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 5.], requires_grad=True)
wt = torch.tensor([0.25, 0.5], requires_grad=True)
l = torch.lerp(a, b, wt)
l.sum().backward()
print(l.grad_fn.name(), a.grad, b.grad, wt.grad)
a.grad = b.grad = None
for name, fn in [("addcmul", lambda: torch.addcmul(a, a, b, value=2)), ("addcdiv", lambda: torch.addcdiv(a, a, b, value=2)),
                 ("hypot", lambda: torch.hypot(a, b)), ("logaddexp", lambda: torch.logaddexp(a, b)),
                 ("xlogy", lambda: torch.xlogy(a, b)), ("lerp_scalar", lambda: torch.lerp(a, b, 0.3))]:
    out = fn()
    out.sum().backward()
    print(name, out.grad_fn.name(), a.grad, b.grad)
    a.grad = b.grad = None
z = torch.tensor([0., 1.], requires_grad=True)
xl = torch.xlogy(z, torch.tensor([0., 2.]))
xl.sum().backward()
print(xl, z.grad)
