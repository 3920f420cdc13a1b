# Mesh processing as in pytorch3d-style code: face normals with torch.linalg.cross,
# area-weighted vertex normals accumulated with index_add_, F.normalize, edge lengths,
# dihedral angles with atan2 of cross/dot, and a Laplacian smoothing loss with gradients.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)

# an octahedron with slightly perturbed vertices
verts = torch.tensor([[1.0, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
verts = verts * (1 + 0.1 * torch.sin(torch.arange(6.0))).unsqueeze(-1)
faces = torch.tensor([[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]])

v0, v1, v2 = verts[faces].unbind(1)
fn = torch.linalg.cross(v1 - v0, v2 - v0)
areas = 0.5 * fn.norm(dim=-1)
print("areas", areas, f"total {areas.sum().item():.4f}")
fn_unit = F.normalize(fn, dim=-1)
print("face normals\n", fn_unit)
centroid_dirs = F.normalize(verts[faces].mean(1), dim=1)
print("outward", ((fn_unit * centroid_dirs).sum(-1) > 0).all().item())

vn = torch.zeros_like(verts)
for k in range(3):
    vn.index_add_(0, faces[:, k], fn)
vn = F.normalize(vn, p=2, dim=1, eps=1e-6)
print("vertex normals\n", vn)

# same with scatter_add on flattened indices
vn2 = torch.zeros_like(verts).scatter_add_(0, faces.reshape(-1, 1).expand(-1, 3), fn.repeat_interleave(3, 0))
print("scatter matches", torch.allclose(F.normalize(vn2, dim=1), vn, atol=1e-6))

# unique edges and their lengths
e = torch.cat([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]], 0)
e, _ = e.sort(dim=1)
edges, inverse = torch.unique(e, dim=0, return_inverse=True)
print("edges", edges.shape, edges[:5].tolist(), inverse[:6].tolist())
lengths = (verts[edges[:, 0]] - verts[edges[:, 1]]).norm(dim=1)
print("edge lengths", lengths)

# dihedral angle between faces 0 and 1 sharing edge (2, 4)
n0, n1 = fn_unit[0], fn_unit[1]
edge_dir = F.normalize(verts[4] - verts[2], dim=0)
ang = torch.atan2(torch.dot(torch.linalg.cross(n0, n1), edge_dir), torch.dot(n0, n1))
print("dihedral deg", torch.rad2deg(ang).item().__round__(3))

# uniform Laplacian smoothing loss, gradient w.r.t. vertices
V = verts.clone().requires_grad_(True)
A = torch.zeros(6, 6)
A[edges[:, 0], edges[:, 1]] = 1.0
A[edges[:, 1], edges[:, 0]] = 1.0
deg = A.sum(1, keepdim=True)
lap = V - (A @ V) / deg
loss = lap.norm(dim=1).mean()
loss.backward()
print(f"laplacian loss {loss.item():.5f}")
print(V.grad)

# normal consistency loss between adjacent faces (1 - cos)
Vn = verts.clone().requires_grad_(True)
a, b, c = Vn[faces].unbind(1)
nrm = F.normalize(torch.cross(b - a, c - a, dim=1), dim=1)
pairs = torch.tensor([[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]])
nc = (1 - F.cosine_similarity(nrm[pairs[:, 0]], nrm[pairs[:, 1]], dim=1)).mean()
nc.backward()
print(f"normal consistency {nc.item():.5f}", Vn.grad.abs().sum().item().__round__(4))

try:
    torch.linalg.cross(torch.ones(4, 2), torch.ones(4, 2))
except RuntimeError as err:
    print(type(err).__name__, err)
try:
    torch.linalg.cross(torch.ones(4, 3), torch.ones(5, 3))
except RuntimeError as err:
    print(type(err).__name__, err)
print(torch.linalg.cross(torch.ones(1, 3), torch.tensor([[1.0, 2, 3], [0, 0, 1]])))
