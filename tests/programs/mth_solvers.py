# Solving linear systems the numerically careful way (blog post "Don't invert that matrix"):
# linalg.solve, cholesky_ex info, solve_triangular, lu_factor/lu_solve, pinv, det/slogdet, matrix_power.
import torch

torch.set_printoptions(precision=4, sci_mode=False)

A = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=torch.float64)
b = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
x = torch.linalg.solve(A, b)
print("solve", x, "residual ok", torch.allclose(A @ x, b))
print("solve left=False", torch.linalg.solve(A, b.unsqueeze(0), left=False))
B = torch.stack([b, 2 * b, -b], dim=1)
print("multi rhs", torch.linalg.solve(A, B).shape)
print("batched A, vector b", torch.linalg.solve(torch.stack([A, 2 * A]), b).shape)

L, info = torch.linalg.cholesky_ex(A)
print("cholesky_ex", L, info)
bad = torch.tensor([[1.0, 2.0], [2.0, 1.0]])
L2, info2 = torch.linalg.cholesky_ex(bad)
print("not PD info", info2, "L", L2)
Lb, infob = torch.linalg.cholesky_ex(torch.stack([torch.eye(2), bad, -torch.eye(2)]))
print("batched info", infob)
try:
    torch.linalg.cholesky(bad)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.cholesky_ex(bad, check_errors=True)
except Exception as e:
    print(type(e).__name__, e)
U = torch.linalg.cholesky(A, upper=True)
print("upper cholesky", U)

# solve via triangular solves
y = torch.linalg.solve_triangular(L, b.unsqueeze(1), upper=False)
z = torch.linalg.solve_triangular(L.T, y, upper=True)
print("two triangular solves", z.squeeze())
print("unitriangular", torch.linalg.solve_triangular(L, b.unsqueeze(1), upper=False, unitriangular=True).squeeze())
print("left=False", torch.linalg.solve_triangular(L, b.unsqueeze(0), upper=False, left=False))
print("cholesky_solve", torch.cholesky_solve(b.unsqueeze(1), L).squeeze())

LU, piv = torch.linalg.lu_factor(A)
print("LU", LU)
print("pivots", piv, piv.dtype)
print("lu_solve", torch.linalg.lu_solve(LU, piv, b.unsqueeze(1)).squeeze())
print("lu_solve adjoint", torch.linalg.lu_solve(LU, piv, b.unsqueeze(1), adjoint=True).squeeze())
P, Lm, Um = torch.linalg.lu(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print("P", P, "L", Lm, "U", Um, sep="\n")
LUe, pive, infoe = torch.linalg.lu_factor_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
print("singular lu info", infoe, LUe)

S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
try:
    torch.linalg.solve(S, torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.inv(S)
except Exception as e:
    print(type(e).__name__, e)
print("inv_ex info", torch.linalg.inv_ex(S).info)
print("pinv", torch.linalg.pinv(S))
print("pinv hermitian", torch.linalg.pinv(S, hermitian=True))
print("pinv rcond (older tutorials)", torch.linalg.pinv(A, rcond=0.5))
print("pinv rect", torch.linalg.pinv(torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])))
print("det", torch.linalg.det(A).item().__round__(6), "det singular", torch.det(S))
sign, logabs = torch.linalg.slogdet(torch.tensor([[0.0, 2.0], [3.0, 1.0]]))
print("slogdet", sign, logabs)
print("slogdet singular", torch.linalg.slogdet(S))
print("logdet negative", torch.logdet(torch.tensor([[0.0, 2.0], [3.0, 1.0]])))
F = torch.tensor([[1, 1], [1, 0]])
print("fib matrix_power", torch.linalg.matrix_power(F, 10))
print("power 0", torch.linalg.matrix_power(F, 0))
print("power -2", torch.linalg.matrix_power(A, -2))
try:
    torch.linalg.matrix_power(F, -1)
except Exception as e:
    print(type(e).__name__, e)
print("Tensor.matrix_power", F.matrix_power(3))
