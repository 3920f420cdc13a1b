# Least-squares fitting of a polynomial via Householder QR in LAPACK form: torch.geqrf +
# torch.linalg.householder_product / torch.ormqr, gradients flowing to the data, compared with
# linalg.qr and linalg.lstsq (driver="gelsd": rank and singular values).
import torch

torch.set_default_dtype(torch.float64)

x = torch.linspace(-1.0, 1.0, 9)
A = torch.linalg.vander(x, N=4)
y = torch.sin(2.0 * x) + 0.1 * x ** 2 + 0.25 * torch.cos(x)
print("vander:", A.shape, A[:2])

a, tau = torch.geqrf(A)
print("geqrf shapes:", tuple(a.shape), tuple(tau.shape))
Q = torch.linalg.householder_product(a, tau)
R = torch.triu(a)[:4]
Q2, R2 = torch.linalg.qr(A)
signs = torch.sign(torch.diagonal(R)) * torch.sign(torch.diagonal(R2))
print("Q matches qr (up to sign):", torch.allclose(Q * signs, Q2))
print("R diag:", torch.diagonal(R))

Qty = torch.ormqr(a, tau, y.unsqueeze(-1), transpose=True)[:4]
coef = torch.linalg.solve_triangular(R, Qty, upper=True).squeeze(-1)
print("coef (householder):", coef)

res = torch.linalg.lstsq(A, y.unsqueeze(-1), driver="gelsd")
print("coef (gelsd):", res.solution.squeeze(-1))
print("rank:", res.rank, "singular values:", res.singular_values)
print("residuals:", res.residuals)

# gradient of the fit error w.r.t. the sample locations through householder_product
xr = x.clone().requires_grad_(True)
Ar = torch.linalg.vander(xr, N=4)
ar, taur = torch.geqrf(Ar.detach())
print("geqrf output requires_grad:", ar.requires_grad)
Qr, Rr = torch.linalg.qr(Ar)
fit = Qr @ (Qr.T @ y)
err = (fit - y).pow(2).sum()
err.backward()
print("fit error:", f"{err.item():.6f}")
print("d err / dx:", xr.grad)

# householder_product with gradients through the reflectors themselves
V = torch.tril(torch.arange(12.0).reshape(4, 3) / 10 + 0.1, diagonal=-1) + torch.eye(4, 3)
t = torch.tensor([1.2, 0.8, 0.5], requires_grad=True)
Vr = V.clone().requires_grad_(True)
H = torch.linalg.householder_product(Vr, t)
print("H:", H)
H.sum().backward()
print("grad tau:", t.grad)
print("grad V:", Vr.grad)
print("grad_fn:", type(H.grad_fn).__name__)
