# Batched Möller–Trumbore ray/triangle intersection (rays x triangles broadcast), with
# torch.linalg.cross, masks combined with torch.where / logical ops, nearest-hit selection by
# min over inf-filled distances, barycentric interpolation, and gradients of hit depths.
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def ray_triangle(orig, dirs, v0, v1, v2, eps=1e-8):
    """orig/dirs: (R, 3); v*: (T, 3). Returns t, u, v, hit of shape (R, T)."""
    e1 = (v1 - v0)[None]
    e2 = (v2 - v0)[None]
    d = dirs[:, None]
    p = torch.linalg.cross(d.expand(-1, e2.shape[1], -1), e2.expand(d.shape[0], -1, -1), dim=-1)
    det = (e1 * p).sum(-1)
    parallel = det.abs() < eps
    inv_det = 1.0 / torch.where(parallel, torch.ones_like(det), det)
    s = orig[:, None] - v0[None]
    u = (s * p).sum(-1) * inv_det
    q = torch.linalg.cross(s, e1.expand_as(s), dim=-1)
    v = (d * q).sum(-1) * inv_det
    t = (e2 * q).sum(-1) * inv_det
    hit = ~parallel & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > eps)
    return t, u, v, hit


# a small mesh: two quads (4 triangles) at different depths
V = torch.tensor([[-1.0, -1.0, 2.0], [1.0, -1.0, 2.0], [1.0, 1.0, 2.0], [-1.0, 1.0, 2.0],
                  [-0.5, -0.5, 1.0], [0.5, -0.5, 1.0], [0.5, 0.5, 1.5], [-0.5, 0.5, 1.5]])
F = torch.tensor([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
colors = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0],
                       [0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [0.5, 0.5, 0.5], [0.2, 0.3, 0.4]])

gy, gx = torch.meshgrid(torch.linspace(-0.9, 0.9, 4), torch.linspace(-0.9, 0.9, 5), indexing="ij")
dirs = torch.nn.functional.normalize(torch.stack([gx.flatten() * 0.5, gy.flatten() * 0.5, torch.ones(20)], -1), dim=-1)
orig = torch.zeros(20, 3)

t, u, v, hit = ray_triangle(orig, dirs, V[F[:, 0]], V[F[:, 1]], V[F[:, 2]])
print("hits per ray", hit.sum(1).tolist())
print("hits per tri", hit.sum(0).tolist())
depth = torch.where(hit, t, torch.full_like(t, float("inf")))
tmin, tri = depth.min(dim=1)
any_hit = torch.isfinite(tmin)
print("depth map\n", torch.where(any_hit, tmin, torch.zeros_like(tmin)).reshape(4, 5))
print("triangle id\n", torch.where(any_hit, tri, -torch.ones_like(tri)).reshape(4, 5))
print("inf count", torch.isinf(depth).sum().item(), depth[0])

# barycentric colour interpolation of the nearest hit
rows = torch.arange(20)
uu, vv = u[rows, tri], v[rows, tri]
w = torch.stack([1 - uu - vv, uu, vv], -1)
tri_cols = colors[F[tri]]
img = (w.unsqueeze(-1) * tri_cols).sum(1) * any_hit.unsqueeze(-1)
print("image\n", img.reshape(4, 5, 3)[1])
print("barycentric sums", w[any_hit].sum(-1).allclose(torch.ones(int(any_hit.sum()))))

# gradient of total visible depth w.r.t. the vertices
Vg = V.clone().requires_grad_(True)
t2, _, _, hit2 = ray_triangle(orig, dirs, Vg[F[:, 0]], Vg[F[:, 1]], Vg[F[:, 2]])
visible = torch.where(hit2, t2, torch.zeros_like(t2))
loss = visible.sum()
loss.backward()
print(f"depth sum {loss.item():.4f}")
print("x-grads cancel by symmetry", Vg.grad[:, 0].abs().max().item() < 1e-5)
print(Vg.grad[:, 1:])
print("parallel rays", ray_triangle(torch.zeros(1, 3), torch.tensor([[1.0, 0.0, 0.0]]), V[F[:1, 0]], V[F[:1, 1]], V[F[:1, 2]])[3])
