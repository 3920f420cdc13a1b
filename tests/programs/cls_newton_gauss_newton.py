# Second-order optimisation the tutorial way: Newton's method on the Rosenbrock function with
# torch.autograd.functional.hessian, a damped Newton / Levenberg-Marquardt fit of an exponential
# decay with functional.jacobian (Gauss-Newton), and Newton via double backward.
import torch
from torch.autograd.functional import hessian, jacobian, hvp

torch.set_default_dtype(torch.float64)   # Newton steps are sensitive: work in double


def rosenbrock(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


p = torch.tensor([-1.2, 1.0])
H = hessian(rosenbrock, p)
g = jacobian(rosenbrock, p)
print(g, H, H.dtype, H.requires_grad)
for it in range(7):
    g = jacobian(rosenbrock, p)
    H = hessian(rosenbrock, p)
    p = p - torch.linalg.solve(H, g)
    f = rosenbrock(p).item()
    print(f"it {it} p=({p[0].item():.5f}, {p[1].item():.5f}) f={f:.3e}" if f > 1e-9 else f"it {it} converged")
print(torch.linalg.eigvalsh(hessian(rosenbrock, torch.tensor([1.0, 1.0]))))
print(hessian(rosenbrock, torch.tensor([1.0, 1.0]), vectorize=True))
_, hv = hvp(rosenbrock, torch.tensor([0.5, 0.5]), torch.tensor([1.0, 0.0]))
print(hv, hessian(rosenbrock, torch.tensor([0.5, 0.5]))[0])

# Newton with double backward instead of functional.hessian
q = torch.tensor([-1.2, 1.0], requires_grad=True)
for it in range(3):
    f = rosenbrock(q)
    grad, = torch.autograd.grad(f, q, create_graph=True)
    rows = [torch.autograd.grad(grad[i], q, retain_graph=True)[0] for i in range(2)]
    Hq = torch.stack(rows)
    with torch.no_grad():
        q -= torch.linalg.solve(Hq, grad)
    print(grad.grad_fn.name(), Hq.shape, q)

# Gauss-Newton / Levenberg-Marquardt for y = a * exp(-b t) + c
t = torch.linspace(0, 4, 15)
y = 2.5 * torch.exp(-1.3 * t) + 0.5 + 0.01 * torch.sin(9 * t)


def residuals(theta):
    a, b, c = theta.unbind()
    return a * torch.exp(-b * t) + c - y


theta = torch.tensor([1.0, 0.5, 0.0])
mu = 1e-2
for it in range(10):
    r = residuals(theta)
    J = jacobian(residuals, theta)
    A = J.T @ J + mu * torch.diag(torch.diagonal(J.T @ J))
    step = torch.linalg.solve(A, J.T @ r)
    new = theta - step
    if (residuals(new) ** 2).sum() < (r ** 2).sum():
        theta, mu = new, mu / 3
    else:
        mu = mu * 5
    if it < 4:
        print(f"it {it} sse {(residuals(theta) ** 2).sum().item():.6f} mu {mu:.2e}")
print(J.shape, theta)
print(torch.allclose(J[:, 2], torch.ones(15)), jacobian(residuals, theta, vectorize=True).shape)

# hessian of a two-argument function and of a non-scalar output
def quad(x, A):
    return x @ A @ x


x0 = torch.tensor([1.0, 2.0])
A0 = torch.tensor([[2.0, 1.0], [0.0, 3.0]])
Hxx, HxA = hessian(quad, (x0, A0))[0]
print(Hxx, HxA.shape)
try:
    hessian(lambda v: v ** 2, x0)
except RuntimeError as e:
    print(type(e).__name__, e)
