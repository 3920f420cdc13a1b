# Finite-difference Poisson solve -u'' = f with a reusable factorization: linalg.lu_factor +
# lu_solve (and adjoint), linalg.ldl_factor/ldl_solve on the symmetric system, solve_ex/inv_ex
# error info, and gradients of the solution w.r.t. the source through lu_solve.
import torch

torch.set_default_dtype(torch.float64)

n = 7
h = 1.0 / (n + 1)
main = 2.0 * torch.ones(n)
off = -torch.ones(n - 1)
K = (torch.diag(main) + torch.diag(off, 1) + torch.diag(off, -1)) / h ** 2
xg = torch.linspace(h, 1 - h, n)
f = (torch.pi ** 2) * torch.sin(torch.pi * xg)

LU, piv = torch.linalg.lu_factor(K)
print("pivots:", piv, piv.dtype)
u = torch.linalg.lu_solve(LU, piv, f.unsqueeze(-1)).squeeze(-1)
print("u:", u)
print("max error vs sin:", f"{(u - torch.sin(torch.pi * xg)).abs().max().item():.3e}")
uT = torch.linalg.lu_solve(LU, piv, f.unsqueeze(-1), adjoint=True).squeeze(-1)
print("adjoint solve equal (K symmetric):", torch.allclose(u, uT))
uL = torch.linalg.lu_solve(LU, piv, f.unsqueeze(0), left=False).squeeze(0)
print("right solve equal:", torch.allclose(u, uL))

P, L, U = torch.linalg.lu(K)
print("P is identity:", torch.equal(P, torch.eye(n)), "L diag:", torch.diagonal(L)[:3])
print("lu_unpack agrees:", all(torch.allclose(a, b) for a, b in zip(torch.lu_unpack(LU, piv), (P, L, U))))

LD, pivots = torch.linalg.ldl_factor(K)
u_ldl = torch.linalg.ldl_solve(LD, pivots, f.unsqueeze(-1)).squeeze(-1)
print("ldl solve matches:", torch.allclose(u, u_ldl))

sol, info = torch.linalg.solve_ex(K, f)
print("solve_ex info:", info, torch.allclose(sol, u))
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
inv, info = torch.linalg.inv_ex(S)
print("singular inv_ex info:", info)
try:
    torch.linalg.inv_ex(S, check_errors=True)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.solve(S, torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)

# sensitivity of the midpoint value to the source f, through lu_factor/lu_solve
fr = f.clone().requires_grad_(True)
Kr = K.clone().requires_grad_(True)
LUr, pr = torch.linalg.lu_factor(Kr)
ur = torch.linalg.lu_solve(LUr, pr, fr.unsqueeze(-1)).squeeze(-1)
ur[n // 2].backward()
print("du_mid/df:", fr.grad)
print("du_mid/dK row 3:", Kr.grad[3])
print("Green's function check:", torch.allclose(fr.grad, torch.linalg.inv(K)[n // 2]))
