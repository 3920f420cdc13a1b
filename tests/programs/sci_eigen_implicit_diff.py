# Differentiating through linear algebra the way scientific-ML code does: the gradient of an
# eigenvalue (d lambda / dA = v v^T for symmetric A), a spectral-gap loss on a parametrized
# mass-spring stiffness matrix, curvature of the largest eigenvalue (second derivatives), and
# implicit differentiation of a linear solve x*(theta) = A(theta)^{-1} b checked against the
# adjoint formula, plus lstsq / LU-based solves.
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)


def stiffness(k):
    # chain of springs with stiffnesses k, fixed at both ends: tridiagonal SPD matrix
    n = k.shape[0] - 1
    main = k[:-1] + k[1:]
    off = -k[1:-1]
    return torch.diag(main) + torch.diag(off, 1) + torch.diag(off, -1)


k = torch.tensor([1.0, 2.0, 1.5, 3.0, 1.0], requires_grad=True)
K = stiffness(k)
print(K)
evals = torch.linalg.eigvalsh(K)
print(evals, evals.grad_fn.name())
evals[0].backward()
print("d lambda_min / dk", k.grad)

# d lambda / dA = v v^T
A = K.detach().clone().requires_grad_(True)
L, V = torch.linalg.eigh(A)
L[-1].backward()
print(torch.allclose(A.grad, torch.outer(V[:, -1], V[:, -1])))
print(V.shape, L.grad_fn.name(), V[:, -1].abs())

# maximize the spectral gap with a few gradient steps
k2 = k.detach().clone().requires_grad_(True)
opt = torch.optim.SGD([k2], lr=0.05)
for step in range(4):
    opt.zero_grad()
    lam = torch.linalg.eigvalsh(stiffness(k2))
    gap = lam[1] - lam[0]
    (-gap + 0.01 * (k2 ** 2).sum()).backward()
    opt.step()
    print(step, f"{gap.item():.5f}", k2.grad)

# second derivatives of an eigenvalue: the Hessian of lambda_max w.r.t. the stiffnesses
def lam_max(kk):
    return torch.linalg.eigvalsh(stiffness(kk))[-1]

g, = torch.autograd.grad(lam_max(k), k, create_graph=True)
print(g, g.requires_grad)
H = torch.autograd.functional.hessian(lam_max, k.detach())
print(H.shape, torch.allclose(H, H.T))
print(H[0])

# implicit differentiation: x*(theta) solves A(theta) x = b; dL/dtheta via the adjoint
theta = torch.tensor([0.5, -0.2, 0.1], requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0])
base = torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])


def A_of(t):
    return base + torch.diag(t.exp())


x = torch.linalg.solve(A_of(theta), b)
loss = (x ** 2).sum()
loss.backward()
print(x, x.grad_fn.name())
print("autograd", theta.grad)
with torch.no_grad():
    Ad = A_of(theta)
    xs = torch.linalg.solve(Ad, b)
    lam = torch.linalg.solve(Ad.T, 2 * xs)
    print("adjoint ", -lam * xs * theta.exp())

# the same solve through an LU factorization, least squares and an explicit inverse
t2 = theta.detach().clone().requires_grad_(True)
LU, piv = torch.linalg.lu_factor(A_of(t2))
x_lu = torch.linalg.lu_solve(LU, piv, b.unsqueeze(1))
print(x_lu.squeeze(1), x_lu.grad_fn.name(), piv)
x_lu.sum().backward()
print(t2.grad)
res = torch.linalg.lstsq(A_of(theta), b.unsqueeze(1))
print(res.solution.squeeze(1), res.solution.grad_fn.name())
print(res.residuals, res.rank, res.singular_values)
x_inv = torch.linalg.inv(A_of(theta)) @ b
print(torch.allclose(x_inv, x), x_inv.grad_fn.name())
try:
    torch.linalg.eigvalsh(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.linalg.solve(torch.zeros(3, 3), b)
except RuntimeError as e:
    print(type(e).__name__, e)
