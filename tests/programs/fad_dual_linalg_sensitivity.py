# Sensitivity analysis with dual numbers: perturb a matrix along a direction dA and read the
# first-order change of solve/inv/det/eigh/svdvals/cholesky/matrix_exp from forward-mode AD,
# checked against central finite differences (float64), as in a numerical-methods notebook.
import torch
import torch.autograd.forward_ad as fwAD

torch.set_default_dtype(torch.float64)

n = 4
i = torch.arange(n, dtype=torch.float64)
A = torch.eye(n) * 3 + 0.5 * torch.cos(i[:, None] * 1.3 + i[None, :] * 0.7)
A = (A + A.T) / 2  # symmetric positive definite
dA = torch.sin(i[:, None] - 2 * i[None, :])
dA = (dA + dA.T) / 2
b = torch.linspace(1, 2, n)

functions = {
    "solve": lambda M: torch.linalg.solve(M, b),
    "inv": lambda M: torch.linalg.inv(M)[0],
    "det": lambda M: torch.linalg.det(M),
    "slogdet": lambda M: torch.linalg.slogdet(M).logabsdet,
    "eigvalsh": lambda M: torch.linalg.eigvalsh(M),
    "svdvals": lambda M: torch.linalg.svdvals(M),
    "cholesky": lambda M: torch.linalg.cholesky(M).diagonal(),
    "matrix_exp": lambda M: torch.linalg.matrix_exp(M / 4)[:, 0],
    "pinv": lambda M: torch.linalg.pinv(M)[1],
    "norm": lambda M: torch.linalg.matrix_norm(M, ord="nuc"),
    "trace_log": lambda M: torch.trace(torch.linalg.inv(M) @ M.matrix_power(2)),
}

h = 1e-6
for name, fn in functions.items():
    with fwAD.dual_level():
        out = fn(fwAD.make_dual(A, dA))
        value, tangent = fwAD.unpack_dual(out)
    fd = (fn(A + h * dA) - fn(A - h * dA)) / (2 * h)
    print(f"{name:10s} value {value.sum().item():+.6f} d/deps {tangent.sum().item():+.6f}",
          "fd ok:", torch.allclose(tangent, fd, atol=1e-6))

# eigenvector sensitivity needs a sign convention; compare |v|^2 instead
with fwAD.dual_level():
    evals, evecs = torch.linalg.eigh(fwAD.make_dual(A, dA))
    tv = fwAD.unpack_dual(evecs ** 2).tangent
    tl = fwAD.unpack_dual(evals).tangent
print("d eigenvalues", tl)
print("d |v|^2 columns sum to 0:", torch.allclose(tv.sum(0), torch.zeros(n), atol=1e-10))
# first-order perturbation theory: d lambda_k = v_k^T dA v_k
_, V = torch.linalg.eigh(A)
print("perturbation theory:", torch.allclose(tl, torch.einsum("ik,ij,jk->k", V, dA, V)))

# Jacobian of x(A) = A^{-1} b by columns: one dual pass per basis direction
J = torch.zeros(n, n * n)
for k in range(n * n):
    e = torch.zeros(n * n)
    e[k] = 1
    with fwAD.dual_level():
        J[:, k] = fwAD.unpack_dual(torch.linalg.solve(fwAD.make_dual(A, e.view(n, n)), b)).tangent
ref = torch.autograd.functional.jacobian(lambda M: torch.linalg.solve(M, b), A).reshape(n, n * n)
print("column-by-column jacobian matches:", torch.allclose(J, ref))
print("forward-mode strategy matches:", torch.allclose(
    torch.autograd.functional.jacobian(lambda M: torch.linalg.solve(M, b), A, vectorize=True,
                                       strategy="forward-mode").reshape(n, n * n), ref))
