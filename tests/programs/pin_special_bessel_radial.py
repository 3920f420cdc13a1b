# Radial heat/diffusion solutions built from special functions: gradients through
# torch.special.i0/i0e/i1/i1e, erf/erfc/erfcx, gammaln/digamma/polygamma and xlogy, checked with
# gradcheck in float64, plus torch.gradient (finite differences with spacing) on a 2-D field.
import torch
from torch.autograd import gradcheck

torch.set_default_dtype(torch.float64)

r = torch.linspace(0.1, 3.0, 6, requires_grad=True)
sp = torch.special

fields = {
    "i0": sp.i0(r), "i0e": sp.i0e(r), "i1": sp.i1(r), "i1e": sp.i1e(r),
    "erfc": sp.erfc(r), "erfcx": sp.erfcx(r), "gammaln": sp.gammaln(r + 1),
    "digamma": sp.digamma(r), "trigamma": sp.polygamma(1, r), "xlogy": sp.xlogy(r, r + 1),
    "ndtr": sp.ndtr(r), "log_ndtr": sp.log_ndtr(-r), "sinc": sp.sinc(r), "entr": sp.entr(r),
}
for name, val in fields.items():
    g, = torch.autograd.grad(val.sum(), r)
    print(f"{name:8s} val0={val[0].item():.5f} grad={[round(v, 4) for v in g.tolist()]}")

for name, fn in [("i0", sp.i0), ("i1e", sp.i1e), ("erfcx", sp.erfcx), ("digamma", sp.digamma),
                 ("log_ndtr", sp.log_ndtr)]:
    print("gradcheck", name, gradcheck(fn, (r.detach().clone().requires_grad_(True),)))
print("gradgradcheck i0:", torch.autograd.gradgradcheck(sp.i0, (r.detach().clone().requires_grad_(True),)))

try:  # bessel_j0 has no derivative formula in PyTorch
    sp.bessel_j0(r).sum().backward()
    print("bessel_j0 backward ok")
except RuntimeError as e:
    print("bessel_j0", type(e).__name__, str(e).split("\n")[0])

# second derivative of i0 satisfies the modified Bessel ODE: r^2 y'' + r y' - r^2 y = 0
y = sp.i0(r)
dy, = torch.autograd.grad(y.sum(), r, create_graph=True)
d2y, = torch.autograd.grad(dy.sum(), r)
print("Bessel ODE residual small:", bool(((r ** 2 * d2y + r * dy - r ** 2 * y).abs() < 1e-8).all()))

# torch.gradient on a sampled 2-D field with non-unit spacing and coordinates
xs = torch.linspace(0, 1, 5)
ys = torch.linspace(0, 2, 4)
X, Y = torch.meshgrid(xs, ys, indexing="ij")
F = X ** 2 * Y
gx, gy = torch.gradient(F, spacing=(0.25, 2.0 / 3.0))
print("dF/dx:", gx)
print("dF/dy:", gy)
gx2, = torch.gradient(F, spacing=(xs,), dim=0, edge_order=2)
print("edge_order=2 exact for quadratic:", torch.allclose(gx2, 2 * X * Y))
Fr = F.clone().requires_grad_(True)
torch.gradient(Fr, dim=1)[0].pow(2).sum().backward()
print("grad through torch.gradient:", Fr.grad[0])
