# torch.autograd.functional on a loss landscape: jacobian (tuple inputs, vectorize, forward-mode),
# hessian, vjp, jvp, hvp, vhp with create_graph / strict, as in curvature / sharpness analyses.
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

torch.set_printoptions(precision=4)


def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[2], x.prod()])


def loss(w, b):
    z = torch.tanh(torch.arange(1.0, 4.0) @ w.view(3, 2) + b)
    return (z ** 2).sum()


x = torch.tensor([1.0, 2.0, 3.0])
J = jacobian(f, x)
print(J)
print(jacobian(f, x, vectorize=True))
print(jacobian(f, x, vectorize=True, strategy="forward-mode"))

w = torch.linspace(-0.5, 0.5, 6)
b = torch.tensor([0.1, -0.2])
Jw, Jb = jacobian(loss, (w, b))
print(Jw, Jb)
H = hessian(loss, (w, b))
print(type(H).__name__, len(H), [h.shape for h in H[0]], H[1][1])
print(torch.allclose(H[0][1], H[1][0].T))

out, v_J = vjp(f, x, torch.tensor([1.0, 0.0, -1.0]))
print(out, v_J)
out, J_v = jvp(f, x, torch.tensor([0.0, 1.0, 0.0]))
print(J_v)
val, hv = hvp(lambda z: (z ** 3).sum() + z[0] * z[1], x, torch.ones(3))
print(val, hv)
val, vh = vhp(lambda z: (z ** 3).sum() + z[0] * z[1], x, torch.ones(3))
print(torch.equal(hv, vh))

# sharpness: top Hessian eigenvalue by power iteration on hvp
def flat_loss(p):
    return loss(p[:6], p[6:])


p0 = torch.cat([w, b])
v = torch.ones(8) / 8 ** 0.5
for it in range(30):
    _, Hv = hvp(flat_loss, p0, v)
    lam = torch.dot(v, Hv)
    v = Hv / Hv.norm()
print(f"top eigenvalue {lam.item():.4f}")
eigs = torch.linalg.eigvalsh(hessian(flat_loss, p0))
print(f"{eigs.abs().max().item():.4f}")

# create_graph lets us differentiate the jvp / hessian results again
xg = x.clone().requires_grad_()
_, jv = jvp(f, xg, torch.ones(3), create_graph=True)
print(jv.requires_grad, jv.grad_fn is not None)
jv.sum().backward()
print(xg.grad)
Hc = hessian(lambda z: (z ** 4).sum(), xg, create_graph=True)
print(Hc.requires_grad, torch.autograd.grad(Hc.trace(), xg)[0])
print(hessian(lambda z: (z ** 4).sum(), xg).requires_grad)

# strict mode complains about outputs independent of the input
try:
    jacobian(lambda z: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print(type(e).__name__, e)
print(jacobian(lambda z: torch.ones(2), x))
try:
    vjp(f, x, torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    hessian(f, x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    jacobian(f, x, strategy="forward-mode")
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    hvp(lambda z: z.sum(), x, torch.ones(3), strict=True)
except RuntimeError as e:
    print(type(e).__name__, e)
