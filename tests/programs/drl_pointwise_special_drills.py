# Pointwise drills from numpy translation sheets: np.heaviside, np.copysign, np.modf-style
# frac/trunc/fix, scipy.special.logit/xlogy -> torch.logit(eps)/torch.xlogy, incl. int inputs,
# scalar arguments, special values, gradients and the dtype errors.
import torch

x = torch.tensor([-1.5, -0.0, 0.0, 2.0, float("nan")])
print(torch.heaviside(x, torch.tensor(0.5)), torch.heaviside(x, torch.tensor([9., 8., 7., 6., 5.])))
print(torch.heaviside(torch.tensor([-2, 0, 3]), torch.tensor([1])), x.heaviside(torch.tensor(1.)))
print(torch.copysign(torch.tensor([1., 2., 3.]), -1), torch.copysign(torch.tensor([3, -4]), torch.tensor([-0.0, 1.0])))
print(torch.copysign(torch.tensor([1., 1., 1.]), torch.tensor([-0.0, 0.0, float("nan")])), torch.copysign(torch.tensor([2]), 1).dtype)
print(x.copysign(torch.tensor(-1.)), torch.signbit(x), torch.sgn(x))

y = torch.tensor([-2.7, -0.5, 0.5, 2.7, 3.0])
print(torch.frac(y), torch.trunc(y), torch.fix(y), y.fix(), y.trunc().dtype)
print(torch.frac(torch.tensor([float("inf"), -float("inf"), float("nan")])), torch.trunc(torch.tensor([1, -2])))
print(torch.fix(torch.tensor([7])), y.frac() + y.trunc() == y, torch.round(y), torch.round(y, decimals=1))
print(torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])), torch.round(torch.tensor([1234.5678]), decimals=-2))

p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0])
print(torch.logit(p), torch.logit(p, eps=1e-6), torch.logit(p, 0.2), p.logit(eps=0.5))
print(torch.logit(torch.tensor([1.5, -0.5])), torch.logit(torch.tensor([1.5, -0.5]), eps=0.1), torch.logit(torch.tensor([0, 1])))
print(torch.special.logit(p, eps=0.25), torch.special.expit(torch.tensor([0., 2.])))
print(torch.xlogy(torch.tensor([0., 0., 1., 2.]), torch.tensor([0., float("nan"), 0., 3.])), torch.xlogy(2, torch.tensor([1., 4.])))
print(torch.xlogy(torch.tensor([0., 2.]), 3), torch.special.xlogy(torch.tensor([1, 2]), torch.tensor([2, 2])), torch.special.xlog1py(torch.tensor([0., 2.]), torch.tensor([-1., 1.])))
print(torch.xlogy(torch.tensor([1, 2]), torch.tensor([2, 3])).dtype, torch.xlogy(torch.tensor([1.]), torch.tensor([2.], dtype=torch.float64)).dtype)
print(torch.special.entr(torch.tensor([0., 0.5, 1., -1.])), torch.xlogy(torch.tensor([float("nan"), 0.]), torch.tensor([0., -1.])))

pg = torch.tensor([0.0, 0.25, 0.5, 1.0], requires_grad=True)
lg = torch.logit(pg, eps=0.1)
lg.sum().backward()
print(lg, lg.grad_fn.name(), pg.grad)
pg.grad = None
lg2 = torch.logit(pg)
lg2[1:3].sum().backward()
print(pg.grad)
a = torch.tensor([0., 1., 2.], requires_grad=True)
b = torch.tensor([0., 0.5, 4.], requires_grad=True)
xl = torch.xlogy(a, b)
xl.sum().backward()
print(xl, xl.grad_fn.name(), a.grad, b.grad)
c = torch.tensor([-2.5, 0.5, 1.5], requires_grad=True)
out = torch.frac(c) * 3 + torch.trunc(c) + torch.fix(c)
out.sum().backward()
print(out.grad_fn.name(), c.grad, torch.frac(c).grad_fn.name(), torch.trunc(c).grad_fn.name(), torch.fix(c).grad_fn.name())
c.grad = None
cs = torch.copysign(c, torch.tensor([1., -1., -0.0]))
cs.sum().backward()
print(cs, cs.grad_fn.name(), c.grad)
h = torch.tensor([1., -1.], requires_grad=True)
try:
    torch.heaviside(h, torch.tensor(0.5))
    print("heaviside ok")
except Exception as e:
    print(type(e).__name__, e)

for bad in [lambda: torch.heaviside(x, torch.tensor([1, 2])), lambda: torch.heaviside(torch.tensor([1]), torch.tensor([0.5])),
            lambda: torch.heaviside(x, 0.5), lambda: torch.xlogy(torch.tensor([1.]), torch.tensor([1., 2.]))]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
