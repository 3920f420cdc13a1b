# The failure modes GP code runs into and how users inspect them: LinAlgError messages for
# non-positive-definite kernels (single and batched), cholesky(upper=True), cholesky_ex
# check_errors, solve_triangular / cholesky_solve shape and dtype errors, deprecated torch.cholesky
# and triangular_solve, and cdist gradients at coincident inputs.
import warnings
import torch

torch.set_printoptions(precision=4)
x = torch.tensor([[0.0], [0.0], [1.0]])
K = torch.exp(-0.5 * torch.cdist(x, x) ** 2)
for jitter in [0.0, -1e-3]:
    try:
        torch.linalg.cholesky(K + jitter * torch.eye(3))
    except torch.linalg.LinAlgError as e:
        print(type(e).__name__, "|", e)
    except RuntimeError as e:
        print("RuntimeError", e)
Kb = torch.stack([torch.eye(3), K - 1e-3 * torch.eye(3), -torch.eye(3)])
try:
    torch.linalg.cholesky(Kb)
except RuntimeError as e:
    print(type(e).__name__, isinstance(e, RuntimeError), "|", e)
try:
    torch.linalg.cholesky_ex(Kb, check_errors=True)
except RuntimeError as e:
    print(type(e).__name__, "|", e)
print(torch.linalg.cholesky_ex(Kb).info)

S = torch.tensor([[4.0, 2.0, 0.6], [2.0, 2.0, 0.5], [0.6, 0.5, 3.0]])
U = torch.linalg.cholesky(S, upper=True)
print(U, torch.allclose(U.mT @ U, S))
print(torch.cholesky_solve(torch.eye(3), U, upper=True))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    Lold = torch.cholesky(S)
    print(Lold)
print(torch.linalg.solve_triangular(U, torch.ones(3, 2), upper=True, unitriangular=True))
sol = torch.triangular_solve(torch.ones(3, 1), U, upper=True)
print(type(sol).__name__, sol.solution.squeeze(), sol.cloned_coefficient.shape)

for bad in [lambda: torch.linalg.solve_triangular(U, torch.ones(3)), lambda: torch.linalg.solve_triangular(U, torch.ones(2, 3), upper=True),
            lambda: torch.cholesky_solve(torch.ones(3, 1), U.double()), lambda: torch.linalg.solve_triangular(U, torch.ones(3, 1)),
            lambda: torch.linalg.cholesky(torch.ones(2, 3)), lambda: torch.cholesky_inverse(torch.ones(2, 3)),
            lambda: torch.linalg.cholesky(torch.tensor([[1, 0], [0, 1]])), lambda: torch.logdet(torch.ones(3))]:
    try:
        print("ok", bad())
    except Exception as e:
        print(type(e).__name__, "|", e)

print(torch.logdet(torch.tensor([[-1.0, 0.0], [0.0, 2.0]])), torch.logdet(torch.zeros(2, 2)))
print(torch.linalg.slogdet(torch.tensor([[-1.0, 0.0], [0.0, 2.0]])))

# cdist gradients when a training point is duplicated (zero distance)
a = torch.tensor([[0.0, 1.0], [0.0, 1.0], [2.0, 0.0]], requires_grad=True)
D = torch.cdist(a, a)
D.sum().backward()
print(D, a.grad)
a.grad = None
torch.cdist(a, a, p=1).sum().backward()
print(a.grad)
a.grad = None
torch.cdist(a, a, p=float("inf")).sum().backward()
print(a.grad)
print(torch.cdist(a, a, compute_mode="use_mm_for_euclid_dist").grad_fn.name())
print(torch.cdist(a, a, compute_mode="donot_use_mm_for_euclid_dist").grad_fn.name())
print(torch.cdist(a, a, p=0), torch.cdist(a, a, p=3))
try:
    torch.cdist(a, torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError |", e)

L = torch.linalg.cholesky(S).requires_grad_()
torch.cholesky_inverse(L).trace().backward()
print(L.grad)
