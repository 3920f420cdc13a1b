# Geometric fitting with QR-based least squares, as in LAPACK-style code: sphere fitting
# (algebraic, linear in center and radius term) via torch.geqrf + torch.ormqr +
# solve_triangular, plane fitting with torch.linalg.qr, and circle fitting compared with lstsq.
import torch

torch.set_printoptions(precision=5, sci_mode=False)
dt = torch.float64

# points on a sphere of center (1, -2, 0.5) and radius 3, slightly perturbed
k = torch.arange(20, dtype=dt)
theta = k * 2.399963
z = 1 - 2 * (k + 0.5) / 20
r = torch.sqrt(1 - z ** 2)
unit = torch.stack([r * torch.cos(theta), r * torch.sin(theta), z], -1)
center = torch.tensor([1.0, -2.0, 0.5], dtype=dt)
pts = center + 3.0 * unit * (1 + 0.002 * torch.sin(7 * k)).unsqueeze(-1)

# |p|^2 = 2 c.p + (r^2 - |c|^2)  ->  A x = b
A = torch.cat([2 * pts, torch.ones(20, 1, dtype=dt)], 1)
b = (pts ** 2).sum(1, keepdim=True)
a, tau = torch.geqrf(A)
print("geqrf shapes", a.shape, tau.shape, type(torch.geqrf(A)).__name__)
print("R diag", a.diagonal())
qtb = torch.ormqr(a, tau, b, transpose=True)
R = a[:4].triu()
x = torch.linalg.solve_triangular(R, qtb[:4], upper=True)
c_fit = x[:3, 0]
r_fit = torch.sqrt(x[3, 0] + (c_fit ** 2).sum())
print("center", c_fit, "radius", f"{r_fit.item():.5f}")
print("residual norm", f"{qtb[4:].norm().item():.6f}")
Q = torch.orgqr(a, tau)
print("Q orthonormal", torch.allclose(Q.T @ Q, torch.eye(4, dtype=dt)))
print("QR == A", torch.allclose(Q @ R, A))
print("lstsq agrees", torch.allclose(torch.linalg.lstsq(A, b).solution, x))

# plane fit: the normal is the last right singular vector; compare with QR of centered points
plane_pts = torch.stack([k / 4, torch.sin(k), 0.2 * k / 4 - 0.5 * torch.sin(k) + 1.0 + 0.001 * torch.cos(5 * k)], -1)
cen = plane_pts - plane_pts.mean(0)
Qp, Rp = torch.linalg.qr(cen)
_, S, Vh = torch.linalg.svd(Rp)
n = Vh[-1] * torch.sign(Vh[-1, 2])
print("plane normal", n, "sv", S)
print("offset", f"{(n @ plane_pts.mean(0)).item():.5f}")
print("qr R shape", Rp.shape, "complete Q", torch.linalg.qr(cen, mode="complete").Q.shape)

# circle fit in 2D with the same trick, batch of 3 circles, via lstsq
ang = torch.linspace(0, 2 * torch.pi, 9, dtype=dt)[:-1]
radii = torch.tensor([1.0, 2.0, 0.5], dtype=dt)
ctrs = torch.tensor([[0.3, -0.2], [1.0, 1.0], [-2.0, 0.5]], dtype=dt)
circ = ctrs[:, None] + radii[:, None, None] * torch.stack([torch.cos(ang), torch.sin(ang)], -1)
Ac = torch.cat([2 * circ, torch.ones(3, 8, 1, dtype=dt)], -1)
bc = (circ ** 2).sum(-1)
sol = torch.linalg.lstsq(Ac, bc).solution
print("circle centers\n", sol[:, :2])
print("circle radii", torch.sqrt(sol[:, 2] + (sol[:, :2] ** 2).sum(-1)))

# differentiable: gradient of the fitted radius w.r.t. the points through ormqr
p = pts.clone().requires_grad_(True)
A2 = torch.cat([2 * p, torch.ones(20, 1, dtype=dt)], 1)
a2, tau2 = torch.geqrf(A2.detach())
Qfull = torch.linalg.qr(A2).Q
x2 = torch.linalg.solve_triangular(torch.linalg.qr(A2).R, Qfull.T @ (p ** 2).sum(1, keepdim=True), upper=True)
rad = torch.sqrt(x2[3, 0] + (x2[:3, 0] ** 2).sum())
rad.backward()
print(f"radius {rad.item():.5f}", "grad row norms", p.grad.norm(dim=1)[:5])
try:
    a_bad, _ = torch.geqrf(A2)
    a_bad.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
