# Elementwise math beyond the basics: log1p, expm1, sinh, cosh, atan, erf, rsqrt, activations.
import torch
import torch.nn.functional as F

x = torch.tensor([-1.5, -0.5, 0.0, 0.5, 2.0])
print(torch.log1p(x.abs()), torch.expm1(x), x.exp2())
print(torch.sinh(x), torch.cosh(x), torch.atan(x), torch.asin(x / 2), torch.acos(x / 2), torch.tan(x))
print(torch.erf(x), torch.rsqrt(x.abs() + 1), torch.trunc(x), torch.frac(x), x.log2().isnan())
print(torch.log10(torch.tensor([1., 100.])), torch.atan2(x, torch.ones(5)), torch.hypot(x, x))
print(F.softplus(x), F.leaky_relu(x, 0.1), F.elu(x), F.silu(x), F.gelu(x), F.mish(x))
print(F.hardtanh(x), F.relu6(x * 4), F.logsigmoid(x), F.softsign(x), F.hardswish(x))
print(torch.nn.SiLU()(x), torch.nn.LeakyReLU(0.2)(x), torch.nn.Softplus(beta=2)(x), torch.nn.ELU()(x))
w = x.clone().requires_grad_()
for fn in [torch.log1p, torch.expm1, torch.sinh, torch.cosh, torch.atan, torch.erf]:
    arg = w.abs() if fn is torch.log1p else w
    (g,) = torch.autograd.grad(fn(arg).sum(), w)
    print(fn.__name__, g, fn(arg).grad_fn.name())
print(torch.lerp(torch.zeros(3), torch.ones(3), 0.25), torch.sigmoid(x).logit())
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), 1.0])), round(torch.exp(torch.tensor(1.)).item(), 6))
