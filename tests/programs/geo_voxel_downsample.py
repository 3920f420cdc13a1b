# Voxel-grid downsampling of a point cloud as in Open3D-like PyTorch code: floor-divide into voxel
# coordinates, hash with torch.unique(return_inverse, return_counts), average with index_add_ /
# scatter_reduce, per-voxel max height with scatter_reduce("amax"), and occupancy with bucketize.
import torch

torch.set_printoptions(precision=4, sci_mode=False)

n = torch.arange(60, dtype=torch.float32)
pts = torch.stack([torch.cos(n * 0.37) * (1 + n / 60), torch.sin(n * 0.37) * (1 + n / 60), torch.sin(n * 0.11) * 0.5], -1)
colors = torch.stack([n / 60, 1 - n / 60, (n % 7) / 7], -1)
voxel = 0.5

vox = torch.floor(pts / voxel).long()
print("voxel coords range", vox.min(0).values.tolist(), vox.max(0).values.tolist())
vmin = vox.min(0).values
v = vox - vmin
dims = v.max(0).values + 1
keys = (v[:, 0] * dims[1] + v[:, 1]) * dims[2] + v[:, 2]
uniq, inverse, counts = torch.unique(keys, return_inverse=True, return_counts=True)
print("occupied voxels", uniq.numel(), "max count", counts.max().item(), counts[:10].tolist())
print("inverse", inverse[:15].tolist())

nv = uniq.numel()
sums = torch.zeros(nv, 3).index_add_(0, inverse, pts)
centroids = sums / counts.unsqueeze(1).float()
print("centroids\n", centroids[:5])
mean_col = torch.zeros(nv, 3).scatter_reduce(0, inverse.unsqueeze(1).expand(-1, 3), colors, reduce="mean", include_self=False)
print("colors\n", mean_col[:4])
top = torch.full((nv,), -1e9).scatter_reduce(0, inverse, pts[:, 2], reduce="amax")
print("max z", top[:8])
low = torch.zeros(nv).scatter_reduce(0, inverse, pts[:, 2], reduce="amin", include_self=False)
print("min z", low[:8])

# decode voxel keys back to integer grid coordinates
z = uniq % dims[2]
y = (uniq // dims[2]) % dims[1]
x = uniq // (dims[1] * dims[2])
grid = torch.stack([x, y, z], -1) + vmin
print("first voxels", grid[:4].tolist())
print("voxel centers\n", (grid[:4].float() + 0.5) * voxel)

# dense occupancy grid and height histogram with bucketize
occ = torch.zeros(dims.tolist(), dtype=torch.bool)
occ[v[:, 0], v[:, 1], v[:, 2]] = True
print("occupancy", occ.shape, occ.sum().item(), occ.any(dim=2).sum().item())
edges = torch.tensor([-0.5, -0.25, 0.0, 0.25, 0.5])
bins = torch.bucketize(pts[:, 2], edges)
print("z bins", torch.bincount(bins, minlength=6).tolist())
print("searchsorted right", torch.searchsorted(edges, pts[:5, 2], right=True).tolist())

# radius outlier removal with cdist
dist = torch.cdist(pts, pts)
neighbors = (dist < 0.3).sum(1) - 1
keep = neighbors >= 2
print("kept", keep.sum().item(), "of", len(pts), neighbors[:12].tolist())

# differentiable "soft" voxel mean: gradient flows through index_add_
p = pts.clone().requires_grad_(True)
s = torch.zeros(nv, 3).index_add(0, inverse, p)
c = s / counts.unsqueeze(1)
loss = (c ** 2).sum()
loss.backward()
print(f"loss {loss.item():.4f}", p.grad[:3])
