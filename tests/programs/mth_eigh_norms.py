# Spectral analysis of a 1-D Laplacian and a covariance matrix with eigh/eigvalsh (UPLO), then the
# zoo of matrix_norm / vector_norm ords people compare against numpy.linalg.norm.
import torch

torch.set_printoptions(precision=5)

n = 5
L = 2 * torch.eye(n, dtype=torch.float64) - torch.diag(torch.ones(n - 1, dtype=torch.float64), 1) \
    - torch.diag(torch.ones(n - 1, dtype=torch.float64), -1)
evals, evecs = torch.linalg.eigh(L)
print("eigvals", evals)
k = torch.arange(1, n + 1, dtype=torch.float64)
print("analytic", 2 - 2 * torch.cos(k * torch.pi / (n + 1)))
print("orthonormal", torch.allclose(evecs.T @ evecs, torch.eye(n, dtype=torch.float64)))
print("eigvalsh", torch.linalg.eigvalsh(L))
res = torch.linalg.eigh(L)
print(type(res).__name__, res.eigenvalues.dtype, res.eigenvectors.shape)

# UPLO: only one triangle is read
M = torch.tensor([[4.0, 1.0, 100.0], [1.0, 3.0, 0.5], [-100.0, 0.5, 2.0]], dtype=torch.float64)
print("lower", torch.linalg.eigvalsh(M))
print("upper", torch.linalg.eigvalsh(M, UPLO="U"))
try:
    torch.linalg.eigvalsh(M, UPLO="X")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.eigh(torch.ones(2, 3))
except Exception as e:
    print(type(e).__name__, e)

# batched
B = torch.stack([L, 2 * L, L + torch.eye(n, dtype=torch.float64)])
print("batched", torch.linalg.eigvalsh(B)[:, [0, -1]])

# norms
A = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
for ord in ["fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2]:
    print("matrix_norm", ord, f"{torch.linalg.matrix_norm(A, ord=ord).item():.5f}")
try:
    torch.linalg.matrix_norm(A, ord=3)
except Exception as e:
    print(type(e).__name__, e)
v = torch.tensor([3.0, -4.0, 0.0, 1.0])
for ord in [2, 1, 0, float("inf"), float("-inf"), 3, 0.5, -1]:
    print("vector_norm", ord, f"{torch.linalg.vector_norm(v, ord=ord).item():.5f}")
print("vector_norm of matrix (flattened)", torch.linalg.vector_norm(A))
print("dim=1", torch.linalg.vector_norm(A, ord=1, dim=1))
print("keepdim", torch.linalg.vector_norm(A, dim=0, keepdim=True))
print("int input dtype", torch.linalg.vector_norm(torch.arange(4.0), dtype=torch.float64))
print("linalg.norm default", torch.linalg.norm(A))
print("linalg.norm ord=2", torch.linalg.norm(A, ord=2))
print("linalg.norm vec ord=1", torch.linalg.norm(v, 1))
print("Tensor.norm p=1 dim=0", A.norm(p=1, dim=0))
print("torch.norm nuc", torch.norm(A, p="nuc"))
print("batched matrix_norm", torch.linalg.matrix_norm(torch.stack([A, 2 * A]), ord=1))
print("matrix_norm dim", torch.linalg.matrix_norm(A.T.unsqueeze(0), dim=(0, 1)))
try:
    torch.linalg.vector_norm(torch.arange(4))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.matrix_norm(v)
except Exception as e:
    print(type(e).__name__, e)
