# Natural cubic spline by solving the tridiagonal system (diag_embed + linalg.solve),
# evaluated with bucketize; Romberg integration with Richardson extrapolation table.
import math
import torch

xk = torch.tensor([0.0, 0.5, 1.2, 2.0, 3.1, 4.0], dtype=torch.float64)
yk = torch.sin(xk) * torch.exp(-0.2 * xk)
h = xk.diff()
n = len(xk)

main = 2 * (h[:-1] + h[1:])
A = torch.diag_embed(main) + torch.diag_embed(h[1:-1], offset=1) + torch.diag_embed(h[1:-1], offset=-1)
rhs = 6 * ((yk[2:] - yk[1:-1]) / h[1:] - (yk[1:-1] - yk[:-2]) / h[:-1])
M = torch.zeros(n, dtype=torch.float64)
M[1:-1] = torch.linalg.solve(A, rhs)
print("tridiag:\n", A.round(decimals=3))
print("second derivatives:", [f"{v:.5f}" for v in M.tolist()])

def spline(q):
    i = torch.bucketize(q, xk[1:-1])
    x0, x1, hi = xk[i], xk[i + 1], h[i]
    a = (x1 - q) / hi
    b = (q - x0) / hi
    return (a * yk[i] + b * yk[i + 1]
            + ((a ** 3 - a) * M[i] + (b ** 3 - b) * M[i + 1]) * hi ** 2 / 6)

q = torch.linspace(0, 4, 9, dtype=torch.float64)
s = spline(q)
print("spline:", [f"{v:.5f}" for v in s.tolist()])
print("max err:", f"{(s - torch.sin(q) * torch.exp(-0.2 * q)).abs().max().item():.2e}")
print("interpolates knots:", torch.allclose(spline(xk), yk))
print("bucketize of knots:", torch.bucketize(xk, xk[1:-1]), torch.bucketize(xk, xk[1:-1], right=True))

# Romberg
def trap(f, a, b, n):
    xs = torch.linspace(a, b, n + 1, dtype=torch.float64)
    return torch.trapezoid(f(xs), xs)

def romberg(f, a, b, levels):
    R = torch.zeros(levels, levels, dtype=torch.float64)
    for k in range(levels):
        R[k, 0] = trap(f, a, b, 2 ** k)
        for j in range(1, k + 1):
            R[k, j] = R[k, j - 1] + (R[k, j - 1] - R[k - 1, j - 1]) / (4 ** j - 1)
    return R

R = romberg(lambda t: 4 / (1 + t ** 2), 0.0, 1.0, 5)
torch.set_printoptions(precision=8)
print(R.tril())
torch.set_printoptions(profile="default")
print("pi err:", f"{abs(R[-1, -1].item() - math.pi):.2e}")
print(torch.triu(R, diagonal=1).abs().sum().item() == 0.0)
idx = torch.tril_indices(5, 5)
print("packed table len:", R[idx[0], idx[1]].numel())
