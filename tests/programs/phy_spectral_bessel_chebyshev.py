# Spectral methods with torch.special: the vibrating circular drum's radial mode J0(j01 r) as
# reference, a Chebyshev basis from torch.special.chebyshev_polynomial_t (orders broadcast as a
# tensor) fitted by least squares and by gradient descent on the coefficients, the derivative of
# the series via the U-polynomials (T_n' = n U_{n-1}), and a DimeNet-style spherical Bessel radial basis.
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5, sci_mode=False)

j01 = 2.404825557695773          # first zero of J0
r = torch.linspace(0, 1, 9)
u = torch.special.bessel_j0(j01 * r)
print("J0 mode", u[:-1])
print("edge value ~ 0:", abs(u[-1].item()) < 1e-9, "J1(j01) = %.6f" % torch.special.bessel_j1(torch.tensor(j01)).item())
print("requires_grad of J0 of a leaf:", torch.special.bessel_j0(r.clone().requires_grad_()).requires_grad)

# Chebyshev basis on x in [-1, 1]: Vandermonde-like matrix T[i, n] = T_n(x_i)
n_modes = 8
x_cheb = torch.cos(math.pi * torch.arange(17) / 16)        # Chebyshev-Gauss-Lobatto points
orders = torch.arange(n_modes)
T = torch.special.chebyshev_polynomial_t(x_cheb.unsqueeze(1), orders.unsqueeze(0))
print("basis", T.shape, T.dtype)
print(T[:3, :5])
print("T_n(cos t) == cos(n t):", torch.allclose(T, torch.cos(orders * torch.arccos(x_cheb).unsqueeze(1)), atol=1e-12))

target = torch.special.bessel_j0(j01 * (x_cheb + 1) / 2)   # map [-1, 1] -> r in [0, 1]
coef_ls = torch.linalg.lstsq(T, target.unsqueeze(1)).solution.squeeze(1)
print("LS coefficients", coef_ls)
print("max fit error %.2e" % (T @ coef_ls - target).abs().max().item())

coef = torch.zeros(n_modes, requires_grad=True)
opt = torch.optim.LBFGS([coef], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = ((T @ coef - target) ** 2).mean()
    loss.backward()
    return loss


opt.step(closure)
print("LBFGS matches lstsq:", torch.allclose(coef.detach(), coef_ls, atol=1e-3))

# derivative of the series: d/dx sum c_n T_n = sum n c_n U_{n-1}
U = torch.special.chebyshev_polynomial_u(x_cheb.unsqueeze(1), (orders - 1).clamp_min(0).unsqueeze(0))
du_series = (U * orders * coef_ls).sum(1)
du_exact = -torch.special.bessel_j1(j01 * (x_cheb + 1) / 2) * j01 / 2
print("series derivative error %.2e" % (du_series - du_exact).abs().max().item())
print("Legendre P_2", torch.special.legendre_polynomial_p(torch.tensor([-1.0, 0.0, 0.5, 1.0]), 2))
print("Hermite He_3", torch.special.hermite_polynomial_he(torch.tensor([0.0, 1.0, 2.0]), 3))

# radial basis for interatomic distances: sin(n pi d / c) / d  ~  spherical j0
d = torch.tensor([0.5, 1.0, 2.5, 4.9])
cutoff = 5.0
n = torch.arange(1, 5)
rbf = torch.special.spherical_bessel_j0(n * math.pi * d.unsqueeze(1) / cutoff)
print("rbf", rbf.shape)
print(rbf)
manual = torch.sin(n * math.pi * d.unsqueeze(1) / cutoff) / (n * math.pi * d.unsqueeze(1) / cutoff)
print("matches sin(x)/x:", torch.allclose(rbf, manual))
print(torch.special.modified_bessel_i0(torch.tensor([0.0, 1.0])), torch.special.i0(torch.tensor([0.0, 1.0])))
