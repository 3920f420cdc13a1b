# Optical-flow warping (backward warp as in RAFT/PWC-Net code): pixel flow converted to the
# normalised grid, F.grid_sample with border/reflection padding and bicubic sampling, the
# photometric loss and its gradient with respect to the flow field.
import torch
import torch.nn.functional as F


def warp(img, flow, mode="bilinear", padding_mode="border", align_corners=True):
    n, _, h, w = img.shape
    ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                            torch.arange(w, dtype=torch.float32), indexing="ij")
    base = torch.stack((xs, ys), dim=-1).unsqueeze(0)          # (1, H, W, 2) in pixels
    coords = base + flow.permute(0, 2, 3, 1)
    if align_corners:
        gx = 2.0 * coords[..., 0] / (w - 1) - 1.0
        gy = 2.0 * coords[..., 1] / (h - 1) - 1.0
    else:
        gx = (2.0 * coords[..., 0] + 1.0) / w - 1.0
        gy = (2.0 * coords[..., 1] + 1.0) / h - 1.0
    grid = torch.stack((gx, gy), dim=-1)
    return F.grid_sample(img, grid, mode=mode, padding_mode=padding_mode,
                         align_corners=align_corners)


img1 = ((torch.arange(2 * 3 * 5 * 7, dtype=torch.float32).view(2, 3, 5, 7) * 3) % 10) / 9
img2 = torch.roll(img1, shifts=1, dims=-1)
flow = torch.zeros(2, 2, 5, 7)
flow[:, 0] = 0.75 + torch.arange(7, dtype=torch.float32) / 20
flow[:, 1] = -0.25 * (torch.arange(5, dtype=torch.float32).view(5, 1) % 2)

torch.set_printoptions(precision=4)
for mode in ("bilinear", "bicubic", "nearest"):
    for pad in ("zeros", "border", "reflection"):
        for ac in (True, False):
            out = warp(img2, flow, mode, pad, ac)
            print(mode, pad, ac, f"{(out - img1).abs().mean().item():.6f}", out[1, 2, 3])

f = flow.clone().requires_grad_(True)
for mode in ("bilinear", "bicubic"):
    loss = (warp(img2, f, mode) - img1).abs().mean()
    loss.backward()
    print(mode, f"loss {loss.item():.6f}")
    torch.set_printoptions(precision=6)
    print(f.grad[0, :, 2])
    f.grad = None
torch.set_printoptions(profile="default")
