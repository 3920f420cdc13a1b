# Numerically safe SO(3) log map / rotation angle as in pytorch3d-style code: the classic NaN
# gradient of acos at |cos| = 1 and of sqrt at 0, the torch.where "NaN leak" through the branch
# that is not selected, and the fixes people apply (clamp with eps, Taylor branch, double where).
import torch

torch.set_printoptions(precision=5, sci_mode=False)


def rot_z(a):
    c, s = torch.cos(a), torch.sin(a)
    z, o = torch.zeros_like(a), torch.ones_like(a)
    return torch.stack([torch.stack([c, -s, z], -1), torch.stack([s, c, z], -1), torch.stack([z, z, o], -1)], -2)


angles = torch.tensor([0.0, 1e-4, 0.5, 3.14159265, torch.pi], dtype=torch.float64)
R = rot_z(angles)


def angle_naive(R):
    tr = R.diagonal(dim1=-2, dim2=-1).sum(-1)
    return torch.acos((tr - 1) / 2)


def angle_clamped(R, eps=1e-6):
    tr = R.diagonal(dim1=-2, dim2=-1).sum(-1)
    return torch.acos(((tr - 1) / 2).clamp(-1 + eps, 1 - eps))


def angle_atan2(R):
    tr = R.diagonal(dim1=-2, dim2=-1).sum(-1)
    w = torch.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0], R[..., 1, 0] - R[..., 0, 1]], -1)
    return torch.atan2(w.norm(dim=-1), tr - 1)


for name, fn in [("naive", angle_naive), ("clamped", angle_clamped), ("atan2", angle_atan2)]:
    Rv = R.clone().requires_grad_(True)
    a = fn(Rv)
    a.sum().backward()
    g = Rv.grad
    print(name, a.detach())
    print("  grad finite per rotation", torch.isfinite(g).all(dim=(-1, -2)).tolist())
    print("  grad[2]\n", g[2])

# log map with a Taylor branch for small angles: the where() NaN leak and its fix
def log_map_leaky(R):
    theta = angle_clamped(R)
    factor = torch.where(theta < 1e-3, 0.5 + theta ** 2 / 12, theta / (2 * torch.sin(theta)))
    w = torch.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0], R[..., 1, 0] - R[..., 0, 1]], -1)
    return factor[..., None] * w


def log_map_safe(R):
    theta = angle_clamped(R)
    small = theta < 1e-3
    safe_theta = torch.where(small, torch.ones_like(theta), theta)
    factor = torch.where(small, 0.5 + theta ** 2 / 12, safe_theta / (2 * torch.sin(safe_theta)))
    w = torch.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0], R[..., 1, 0] - R[..., 0, 1]], -1)
    return factor[..., None] * w


Rs = rot_z(torch.tensor([0.0, 0.3, 1.2], dtype=torch.float64))
for fn in (log_map_leaky, log_map_safe):
    Rv = Rs.clone().requires_grad_(True)
    out = fn(Rv)
    (out ** 2).sum().backward()
    print(fn.__name__, out.detach()[:, 2], "grad nan count", torch.isnan(Rv.grad).sum().item())

# sqrt at zero: norm of a zero vector vs. torch.linalg.vector_norm
v = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
torch.sqrt((v ** 2).sum(-1)).sum().backward()
print("sqrt-of-sum grad", v.grad)
v.grad = None
torch.linalg.vector_norm(v, dim=-1).sum().backward()
print("vector_norm grad", v.grad)
v.grad = None
torch.sqrt((v ** 2).sum(-1) + 1e-12).sum().backward()
print("eps grad", v.grad)

# acos right at the boundary
x = torch.tensor([1.0, -1.0, 0.999999], dtype=torch.float64, requires_grad=True)
torch.acos(x).sum().backward()
print("acos grad", x.grad)
y = torch.tensor([1.0, -1.0], dtype=torch.float64, requires_grad=True)
torch.acos(torch.clamp(y, -1.0, 1.0)).sum().backward()
print("clamped acos grad", y.grad)
