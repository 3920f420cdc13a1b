# Mixing forward- and reverse-mode AD the way the PyTorch forward-AD tutorial suggests:
# forward-over-reverse Hessian-vector products (backward inside a dual level) and
# reverse-over-forward (backpropagating through a tangent), checked against torch.func.
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import grad, hessian, jvp

torch.set_default_dtype(torch.float64)


def rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


x0 = torch.tensor([0.5, -0.3, 1.2, 0.8])
v = torch.tensor([1.0, 0.0, -1.0, 0.5])

# forward-over-reverse: run autograd.grad while x carries a tangent
with fwAD.dual_level():
    x = fwAD.make_dual(x0.clone().requires_grad_(True), v)
    f = rosen(x)
    (g,) = torch.autograd.grad(f, x)
    g_primal, hv = fwAD.unpack_dual(g)
print("grad     ", g_primal)
print("hvp (fwd-over-rev)", hv)
print("matches hessian @ v:", torch.allclose(hv, hessian(rosen)(x0) @ v))
print("matches jvp(grad):", torch.allclose(hv, jvp(grad(rosen), (x0,), (v,))[1]))

# reverse-over-forward: the tangent is differentiable w.r.t. the primal
xr = x0.clone().requires_grad_(True)
with fwAD.dual_level():
    out = rosen(fwAD.make_dual(xr, v))
    dir_deriv = fwAD.unpack_dual(out).tangent
    print("directional derivative", f"{dir_deriv.item():.6f}", "requires_grad", dir_deriv.requires_grad)
    (hv2,) = torch.autograd.grad(dir_deriv, xr)
print("hvp (rev-over-fwd)", hv2)
print("same:", torch.allclose(hv, hv2))

# tangent that itself requires grad: d/dv of the jvp is the gradient
vt = v.clone().requires_grad_(True)
with fwAD.dual_level():
    out = rosen(fwAD.make_dual(x0, vt))
    jv = fwAD.unpack_dual(out).tangent
(dv,) = torch.autograd.grad(jv, vt)
print("d(jvp)/dv == grad:", torch.allclose(dv, grad(rosen)(x0)))
print(dv)

# Newton steps with a CG solve that only uses fwd-over-rev products
x_k = torch.tensor([-1.2, 1.0, -0.5, 0.7])
for it in range(6):
    def Hv(p):
        with fwAD.dual_level():
            xd = fwAD.make_dual(x_k.clone().requires_grad_(True), p)
            (gd,) = torch.autograd.grad(rosen(xd), xd)
            return fwAD.unpack_dual(gd).tangent
    gk = grad(rosen)(x_k)
    d = torch.zeros_like(x_k)
    r = -gk
    p = r.clone()
    for _ in range(8):
        Ap = Hv(p)
        curv = p @ Ap
        if curv <= 0:
            break
        alpha = (r @ r) / curv
        d = d + alpha * p
        r_new = r - alpha * Ap
        if r_new.norm() < 1e-10:
            break
        p = r_new + (r_new @ r_new) / (r @ r) * p
        r = r_new
    x_k = x_k + d
    print(f"newton {it}: f={rosen(x_k).item():.6e} |g|={grad(rosen)(x_k).norm().item():.3e}")
