# Optical-flow / deformable-registration warping as in RAFT/VoxelMorph-style repos: build a pixel
# grid with meshgrid, add a flow field, normalise to [-1, 1] (both align_corners conventions),
# warp with F.grid_sample, an occlusion mask from warping ones, a smoothness loss on flow
# gradients, a few optimisation steps of the flow, and the 3-D (volume) variant.
import warnings
import torch
import torch.nn.functional as F

N, C, H, W = 1, 2, 6, 7
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
img = torch.stack([torch.sin(xx * 0.8) + torch.cos(yy * 0.5), xx * yy / 20]).unsqueeze(0)
print(img.shape, img[0, 1, :2])


def warp(x, flow, align_corners=True, mode="bilinear", padding_mode="zeros"):
    n, _, h, w = x.shape
    gy, gx = torch.meshgrid(torch.arange(h, dtype=x.dtype), torch.arange(w, dtype=x.dtype), indexing="ij")
    px = gx + flow[:, 0]
    py = gy + flow[:, 1]
    if align_corners:
        nx = 2 * px / (w - 1) - 1
        ny = 2 * py / (h - 1) - 1
    else:
        nx = (2 * px + 1) / w - 1
        ny = (2 * py + 1) / h - 1
    grid = torch.stack([nx, ny], dim=-1)
    return F.grid_sample(x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)


zero = torch.zeros(N, 2, H, W)
for ac in (True, False):
    print(ac, torch.allclose(warp(img, zero, ac), img, atol=1e-5))

shift = torch.zeros(N, 2, H, W)
shift[:, 0] = 1.0
shift[:, 1] = 0.5
for mode in ("bilinear", "nearest", "bicubic"):
    out = warp(img, shift, mode=mode)
    print(mode, out[0, 0, 2].round(decimals=4))
print(warp(img, shift, padding_mode="border")[0, 0, :, -1].round(decimals=4))
print(warp(img, -shift, padding_mode="reflection", align_corners=False)[0, 1, 0].round(decimals=4))

valid = warp(torch.ones(N, 1, H, W), shift)
print((valid > 0.999).float().mean().item(), valid[0, 0, -1])

# integer-pixel shift equals torch.roll inside the valid region
s1 = torch.zeros(N, 2, H, W)
s1[:, 0] = 2.0
print(torch.allclose(warp(img, s1)[..., :-2], img[..., 2:], atol=1e-5))

# optimise a flow so that warp(img) matches a shifted target
target = warp(img, shift).detach()
flow = torch.zeros(N, 2, H, W, requires_grad=True)
opt = torch.optim.Adam([flow], lr=0.1)
for step in range(10):
    opt.zero_grad()
    w = warp(img, flow)
    smooth = (flow[..., 1:, :] - flow[..., :-1, :]).abs().mean() + (flow[..., 1:] - flow[..., :-1]).abs().mean()
    loss = F.l1_loss(w, target) + 0.1 * smooth
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.2f}", flow.grad.abs().max().item() > 0)
print("flow x moved towards +1:", flow.detach()[0, 0].mean().item() > 0.3)

# 3-D warp of a volume
vol = torch.arange(2 * 3 * 4, dtype=torch.float32).view(1, 1, 2, 3, 4)
g3 = F.affine_grid(torch.tensor([[[1.0, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0]]]), vol.shape, align_corners=False)
print(g3.shape, F.grid_sample(vol, g3, align_corners=False)[0, 0, 1])
print(F.grid_sample(vol, g3, mode="nearest", align_corners=False)[0, 0, 0])

with warnings.catch_warnings(record=True) as wr:
    warnings.simplefilter("always")
    F.grid_sample(img, torch.zeros(1, 2, 2, 2))
    F.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 2, 2))
print(len(wr), [str(w.message)[:70] for w in wr])
for bad in [lambda: F.grid_sample(vol, torch.zeros(1, 2, 2, 2), align_corners=False),
            lambda: F.grid_sample(vol.long(), torch.zeros(1, 2, 2, 2, 3), align_corners=False),
            lambda: F.grid_sample(img.long(), torch.zeros(1, 2, 2, 2), align_corners=False),
            lambda: F.grid_sample(img, torch.zeros(1, 2, 2, 2, dtype=torch.float64), align_corners=False)]:
    try:
        bad()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
