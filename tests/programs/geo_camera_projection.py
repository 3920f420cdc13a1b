# Pinhole camera projection as in multi-view geometry code: intrinsics K, extrinsics [R|t],
# homogeneous coordinates with F.pad, perspective divide, back-projection with a depth map
# via torch.linalg.inv, reprojection error and its gradient w.r.t. the focal length.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)

fx, fy, cx, cy = 500.0, 480.0, 320.0, 240.0
K = torch.tensor([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])
print("K^-1\n", torch.linalg.inv(K))

ang = torch.tensor(0.2)
R = torch.tensor([[torch.cos(ang), 0.0, torch.sin(ang)], [0.0, 1.0, 0.0], [-torch.sin(ang), 0.0, torch.cos(ang)]])
t = torch.tensor([0.1, -0.05, 0.3])
T = torch.eye(4)
T[:3, :3] = R
T[:3, 3] = t
print("T\n", T)
print("T^-1 closed form ok", torch.allclose(torch.linalg.inv(T)[:3, :3], R.T, atol=1e-6))

g = torch.arange(9, dtype=torch.float32)
X = torch.stack([torch.sin(g) * 0.5, torch.cos(g * 0.7) * 0.4, 3.0 + 0.2 * g], -1)
Xh = F.pad(X, (0, 1), value=1.0)
print("homogeneous", Xh.shape, Xh[0])
Xc = (T @ Xh.T).T[:, :3]
uvw = (K @ Xc.T).T
uv = uvw[:, :2] / uvw[:, 2:3]
print("pixels\n", uv)
print("depth", Xc[:, 2])
in_view = (uv[:, 0] >= 0) & (uv[:, 0] < 640) & (uv[:, 1] >= 0) & (uv[:, 1] < 480)
print("in view", in_view.sum().item(), in_view.tolist())

# back-project with depth and inverse intrinsics
rays = torch.linalg.inv(K) @ F.pad(uv, (0, 1), value=1.0).T
Xc_back = (rays * Xc[:, 2]).T
print("backproject ok", torch.allclose(Xc_back, Xc, atol=1e-4))
Xw_back = (torch.linalg.inv(T) @ F.pad(Xc_back, (0, 1), value=1.0).T).T[:, :3]
print("world err", f"{(Xw_back - X).abs().max().item():.1e}" if (Xw_back - X).abs().max().item() > 1e-3 else "<1e-3")

# depth map -> point cloud with meshgrid
H, W = 3, 4
v, u = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
depth = 1.0 + 0.1 * (u + v)
pix = torch.stack([u, v, torch.ones_like(u)], -1).reshape(-1, 3)
Ks = torch.tensor([[2.0, 0.0, 1.5], [0.0, 2.0, 1.0], [0.0, 0.0, 1.0]])
pts = (torch.linalg.solve(Ks, pix.T)).T * depth.reshape(-1, 1)
print("cloud\n", pts.reshape(H, W, 3)[1])

# refine focal length by minimizing reprojection error
obs = uv.detach()
f = torch.tensor([450.0, 450.0], requires_grad=True)
opt = torch.optim.SGD([f], lr=2e-3)
for it in range(20):
    Kf = torch.zeros(3, 3)
    Kf = Kf.index_put((torch.tensor([0, 1]), torch.tensor([0, 1])), f)
    Kf = Kf + torch.tensor([[0.0, 0.0, cx], [0.0, 0.0, cy], [0.0, 0.0, 1.0]])
    p = (Kf @ Xc.T).T
    pred = p[:, :2] / p[:, 2:]
    err = (pred - obs).pow(2).sum(-1).mean()
    opt.zero_grad()
    err.backward()
    if it % 5 == 0:
        print(it, f"{err.item():.3f}", f.grad.round(decimals=2))
    opt.step()
print("focal", f.detach().round(decimals=2))
