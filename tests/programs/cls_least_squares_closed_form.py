# Closed-form linear regression the way tutorials show it: normal equations with inv/solve,
# torch.linalg.lstsq, pinv, QR and Cholesky, then comparing the solutions and residuals.
import torch

torch.set_printoptions(precision=4)
x = torch.linspace(0, 1, 8)
X = torch.stack([torch.ones_like(x), x, x ** 2], dim=1)
y = (1.5 - 2.0 * x + 0.5 * x ** 2 + 0.05 * torch.sin(7 * x)).unsqueeze(1)
print(X.shape, y.shape, X.dtype)

# 1. normal equations
XtX = X.T @ X
Xty = X.T @ y
w_inv = torch.inverse(XtX) @ Xty
w_solve = torch.linalg.solve(XtX, Xty)
print(w_inv.squeeze(), w_solve.squeeze())
print(torch.allclose(w_inv, w_solve, atol=1e-4))

# 2. lstsq returns a named tuple
res = torch.linalg.lstsq(X, y)
print(type(res).__name__, len(res))
print(res.solution.squeeze(), res.solution.shape)
print(res.rank, res.residuals, res.singular_values)
res_gelsd = torch.linalg.lstsq(X, y, driver='gelsd')
print(res_gelsd.solution.squeeze(), res_gelsd.rank, res_gelsd.singular_values)

# 3. pseudo-inverse
w_pinv = torch.linalg.pinv(X) @ y
print(w_pinv.squeeze(), torch.linalg.pinv(X).shape)
print(torch.allclose(torch.pinverse(X), torch.linalg.pinv(X)))

# 4. QR: R w = Q^T y
Q, R = torch.linalg.qr(X)
print(Q.shape, R.shape, torch.allclose(Q.T @ Q, torch.eye(3), atol=1e-5))
w_qr = torch.linalg.solve_triangular(R, Q.T @ y, upper=True)
print(w_qr.squeeze())
Qc, Rc = torch.linalg.qr(X, mode='complete')
print(Qc.shape, Rc.shape, Rc[3:].abs().max().item() < 1e-5)
qr = torch.linalg.qr(X, mode='r')
print(qr.Q.shape, qr.R.shape)

# 5. Cholesky
L = torch.linalg.cholesky(XtX)
print(torch.allclose(L @ L.T, XtX, atol=1e-4), torch.equal(L, L.tril()))
w_chol = torch.cholesky_solve(Xty, L)
print(w_chol.squeeze())
U = torch.linalg.cholesky(XtX, upper=True)
print(torch.allclose(U, L.T))
z = torch.linalg.solve_triangular(L, Xty, upper=False)
print(torch.linalg.solve_triangular(L.T, z, upper=True).squeeze())

# residuals, R^2
pred = X @ w_solve
ss_res = ((y - pred) ** 2).sum()
ss_tot = ((y - y.mean()) ** 2).sum()
print(f"SSE={ss_res.item():.6f} R2={1 - (ss_res / ss_tot).item():.6f}")
print(torch.linalg.norm(y - pred), torch.linalg.vector_norm(y - pred, ord=1))
print(torch.linalg.matrix_rank(X), torch.linalg.cond(X))

# multiple right-hand sides
Y2 = torch.cat([y, 2 * y + 1], dim=1)
print(torch.linalg.lstsq(X, Y2).solution)

# float64 path
Xd, yd = X.double(), y.double()
wd = torch.linalg.solve(Xd.T @ Xd, Xd.T @ yd)
print(wd.dtype, wd.squeeze())
