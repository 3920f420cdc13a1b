# 1-D Helmholtz problem -u'' - k^2 u = f with impedance (absorbing) boundary conditions: a complex
# finite-difference matrix factorised once with torch.linalg.lu_factor and reused by lu_solve
# (also adjoint=True for the adjoint state), gradient of the transmitted energy w.r.t. the
# wavenumber, and a complex QR (Gram-Schmidt) of a few solution snapshots.
import torch

torch.set_default_dtype(torch.float64)

n = 24
h = 1.0 / (n - 1)
x = torch.linspace(0.0, 1.0, n)
f = torch.exp(-80.0 * (x - 0.3) ** 2).to(torch.complex128)


def helmholtz_matrix(k):
    main = torch.full((n,), 2.0 / h ** 2) - k ** 2
    A = torch.diag(main.to(torch.complex128))
    off = torch.full((n - 1,), -1.0 / h ** 2, dtype=torch.complex128)
    A = A + torch.diag(off, 1) + torch.diag(off, -1)
    # first-order impedance rows: (u_1 - u_0)/h + i k u_0 = 0 and (u_{n-2} - u_{n-1})/h + i k u_{n-1} = 0
    bc = torch.zeros(n, n, dtype=torch.complex128)
    bc[0, 0] = -1.0 / h + 1j * k
    bc[0, 1] = 1.0 / h
    bc[-1, -1] = -1.0 / h + 1j * k
    bc[-1, -2] = 1.0 / h
    rows = torch.zeros(n, 1)
    rows[0] = rows[-1] = 1.0
    return torch.where(rows.bool(), bc, A)


rhs = f.clone()
rhs[0] = rhs[-1] = 0
k = torch.tensor(6.0, requires_grad=True)
A = helmholtz_matrix(k)
LU, piv = torch.linalg.lu_factor(A)
print("LU dtype:", LU.dtype, "pivots:", piv[:6].tolist())
u = torch.linalg.lu_solve(LU, piv, rhs.unsqueeze(-1)).squeeze(-1)
print("residual small:", (A @ u - rhs).abs().max().item() < 1e-9)
print("|u| at 5 points:", [round(v, 5) for v in u.abs()[:: n // 4].tolist()])

energy = u[-1].abs() ** 2
energy.backward()
print(f"transmitted |u(1)|^2 = {energy.item():.6e}")
print(f"d/dk = {k.grad.item():.6e}")

# finite-difference check of the wavenumber sensitivity
with torch.no_grad():
    eps = 1e-6
    e = [torch.linalg.solve(helmholtz_matrix(torch.tensor(kk)), rhs)[-1].abs() ** 2 for kk in (6.0 + eps, 6.0 - eps)]
    print("fd agrees:", abs((e[0] - e[1]).item() / (2 * eps) - k.grad.item()) < 1e-6 * max(1.0, abs(k.grad.item())))

# adjoint state: A^H lambda = dJ/du* solved with the same factors
with torch.no_grad():
    g = torch.zeros(n, dtype=torch.complex128)
    g[-1] = u[-1]
    lam = torch.linalg.lu_solve(LU, piv, g.unsqueeze(-1), adjoint=True).squeeze(-1)
    print("adjoint residual small:", (A.mH @ lam - g).abs().max().item() < 1e-9)

# complex QR of snapshots at several wavenumbers -> orthonormal reduced basis
with torch.no_grad():
    snaps = torch.stack([torch.linalg.solve(helmholtz_matrix(torch.tensor(kk)), rhs) for kk in (4.0, 6.0, 8.0)], 1)
Q, R = torch.linalg.qr(snaps)
print("Q:", tuple(Q.shape), Q.dtype, "orthonormal:", torch.allclose(Q.mH @ Q, torch.eye(3, dtype=Q.dtype)))
print("R diagonal real:", bool((R.diagonal().imag == 0).all()), "abs:", [round(v, 4) for v in R.diagonal().abs().tolist()])

snaps_r = snaps.clone().requires_grad_(True)
Qr, Rr = torch.linalg.qr(snaps_r)
Rr.diagonal().abs().sum().backward()
print("grad wrt snapshots norm:", round(snaps_r.grad.abs().sum().item(), 4), snaps_r.grad.dtype)
P, L, U = torch.linalg.lu(A.detach())
print("A = P L U:", torch.allclose(P @ L @ U, A.detach()), "L unit diagonal:", bool((L.diagonal() == 1).all()))
