# Gradients through linear-algebra ops, checked against the textbook formulas:
# d det(A) = det(A) A^-T, d logdet = A^-T, d tr(A^-1 B), Gaussian negative log-likelihood with a
# Cholesky factor, matrix norms; plus grad_fn names and torch.autograd.gradcheck in float64.
import torch

torch.set_printoptions(precision=4)
A0 = torch.tensor([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]])

A = A0.clone().requires_grad_(True)
d = torch.det(A)
d.backward()
print(d, d.grad_fn.name())
print(A.grad)
print(torch.allclose(A.grad, d.detach() * torch.inverse(A0).T, atol=1e-4))

A = A0.clone().requires_grad_(True)
sign, logabs = torch.linalg.slogdet(A)
logabs.backward()
print(sign, logabs, torch.allclose(A.grad, torch.inverse(A0).T, atol=1e-5))
A = A0.clone().requires_grad_(True)
ld = torch.logdet(A)
ld.backward()
print(ld, ld.grad_fn.name(), torch.allclose(A.grad, torch.inverse(A0).T, atol=1e-5))

A = A0.clone().requires_grad_(True)
Ainv = torch.linalg.inv(A)
Ainv.trace().backward()
print(Ainv.grad_fn.name(), A.grad)
print(torch.allclose(A.grad, -(torch.inverse(A0) @ torch.inverse(A0)).T, atol=1e-5))

A = A0.clone().requires_grad_(True)
b = torch.tensor([1., 2., 3.], requires_grad=True)
x = torch.linalg.solve(A, b)
x.sum().backward()
print(x, x.grad_fn.name())
print(b.grad, A.grad)

# Gaussian NLL via Cholesky
mu = torch.tensor([0.5, -0.5, 1.0], requires_grad=True)
S = A0.clone().requires_grad_(True)
pts = torch.tensor([[0., 0., 0.], [1., -1., 2.], [0.5, 0.5, 0.5], [2., 0., 1.]])
L = torch.linalg.cholesky(S)
diff = (pts - mu).T
z = torch.linalg.solve_triangular(L, diff, upper=False)
nll = 0.5 * (z ** 2).sum() + pts.shape[0] * torch.log(torch.diagonal(L)).sum()
nll.backward()
print(L.grad_fn.name(), nll)
print(mu.grad, S.grad)
mvn = torch.distributions.MultivariateNormal(mu.detach(), covariance_matrix=A0)
print(-mvn.log_prob(pts).sum() - pts.shape[0] * 1.5 * torch.log(torch.tensor(2 * 3.141592653589793)))

# matrix norms and their gradients
for ord in ['fro', 'nuc', 2, 1, float('inf'), -1]:
    A = A0.clone().requires_grad_(True)
    n = torch.linalg.matrix_norm(A, ord=ord)
    n.backward()
    g = A.grad if ord != 'nuc' else torch.allclose(A.grad, torch.eye(3), atol=1e-5)  # SPD: grad = I
    print(ord, f"{n.item():.4f}", g)

# eigh gradient: d lambda_max / dA = v v^T
A = A0.clone().requires_grad_(True)
evals, evecs = torch.linalg.eigh(A)
evals[-1].backward()
v = evecs[:, -1].detach()
print(evals, torch.allclose(A.grad, torch.outer(v, v), atol=1e-4))

# inverse of a batch, and of a singular matrix
batch = torch.stack([A0, 2 * A0, A0 + torch.eye(3)])
print(torch.linalg.inv(batch).shape, torch.det(batch))
try:
    torch.linalg.inv(torch.tensor([[1., 2.], [2., 4.]]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]]))
except torch.linalg.LinAlgError as e:
    print(type(e).__name__, isinstance(e, RuntimeError), e)
print(torch.det(torch.tensor([[1., 2.], [2., 4.]])))

# gradcheck on float64
Ad = A0.double().requires_grad_(True)
print(torch.autograd.gradcheck(lambda m: torch.linalg.inv(m), (Ad,)))
print(torch.autograd.gradcheck(lambda m: torch.det(m), (Ad,)))
print(torch.autograd.gradcheck(lambda m: torch.linalg.cholesky(m @ m.T), (Ad,)))
