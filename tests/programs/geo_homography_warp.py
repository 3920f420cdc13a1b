# Planar homography: 4-point DLT via SVD null space, normalization, warping an image with
# F.grid_sample using a pixel-to-normalized grid, and refining H by gradient descent on a
# photometric loss (kornia-style differentiable warping).
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def dlt(src, dst):
    rows = []
    for (x, y), (u, v) in zip(src.tolist(), dst.tolist()):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    A = torch.tensor(rows, dtype=src.dtype)
    _, _, Vh = torch.linalg.svd(A)
    H = Vh[-1].reshape(3, 3)
    return H / H[2, 2]


def apply_h(H, pts):
    ph = torch.cat([pts, torch.ones_like(pts[..., :1])], -1) @ H.transpose(-1, -2)
    return ph[..., :2] / ph[..., 2:]


src = torch.tensor([[0.0, 0.0], [15.0, 0.0], [15.0, 15.0], [0.0, 15.0]], dtype=torch.float64)
H_true = torch.tensor([[1.05, 0.08, 1.0], [-0.05, 0.95, 2.0], [0.002, -0.001, 1.0]], dtype=torch.float64)
dst = apply_h(H_true, src)
print("dst corners\n", dst)
H = dlt(src, dst)
print("H\n", H)
print("reproj err", (apply_h(H, src) - dst).norm(dim=-1).max().item() < 1e-9)
print("inverse maps back", torch.allclose(apply_h(torch.linalg.inv(H), dst), src))

# synthetic image: smooth pattern 1x1x16x16
Hs, Ws = 16, 16
yy, xx = torch.meshgrid(torch.arange(Hs, dtype=torch.float32), torch.arange(Ws, dtype=torch.float32), indexing="ij")
img = (torch.sin(xx / 3) * torch.cos(yy / 4) + 0.1 * xx / Ws).reshape(1, 1, Hs, Ws)


def warp(image, Hm):
    grid_pix = torch.stack([xx, yy], -1).reshape(-1, 2)
    srcpix = apply_h(torch.linalg.inv(Hm), grid_pix)
    norm = torch.stack([srcpix[:, 0] / (Ws - 1), srcpix[:, 1] / (Hs - 1)], -1) * 2 - 1
    return F.grid_sample(image, norm.reshape(1, Hs, Ws, 2), mode="bilinear", padding_mode="zeros", align_corners=True)


target = warp(img, H_true.float())
print("warped", target.shape, target[0, 0, 5, :6])
print("valid pixels", (target != 0).sum().item())

# refine a perturbed homography with Adam on 8 free parameters
params = torch.zeros(8, requires_grad=True)
H0 = torch.tensor([[1.0, 0.05, 0.5], [0.0, 1.0, 1.5], [0.0, 0.0, 1.0]])
opt = torch.optim.Adam([params], lr=0.01)
for step in range(30):
    Hp = H0 + F.pad(params, (0, 1)).reshape(3, 3) * torch.tensor([[0.1, 0.1, 1.0], [0.1, 0.1, 1.0], [0.001, 0.001, 0.0]])
    pred = warp(img, Hp)
    mask = (target != 0) & (pred != 0)
    loss = ((pred - target)[mask] ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(step, f"{loss.item():.5f}")
print("grad finite", torch.isfinite(params.grad).all().item())
