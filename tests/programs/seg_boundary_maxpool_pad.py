# Boundary-aware losses from segmentation repos: soft boundary via max_pool2d(-x) erosion trick,
# morphological gradient with reflect/replicate padding, boundary-weighted BCE, and a soft skeleton.
import torch
import torch.nn.functional as F

H, W = 8, 8
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
gt = (((xx - 3.5) ** 2 + (yy - 3.5) ** 2) < 7).float().view(1, 1, H, W)
print(gt[0, 0].int())


def dilate(x, k=3):
    return F.max_pool2d(x, k, stride=1, padding=k // 2)


def erode(x, k=3):
    return -F.max_pool2d(-x, k, stride=1, padding=k // 2)


boundary = dilate(gt) - erode(gt)
print(boundary[0, 0].int(), boundary.sum())
inner_edge = gt - erode(gt)
print(inner_edge.sum().item())

padded = F.pad(gt, (1, 1, 1, 1), mode="reflect")
print(padded.shape, padded[0, 0, :3])
rep = F.pad(gt, (2, 0, 0, 1), mode="replicate")
print(rep.shape, rep[0, 0, -1])
grad = F.max_pool2d(F.pad(gt, (1, 1, 1, 1), mode="replicate"), 3, stride=1) - gt
print(grad.sum(), grad.shape)

logits = (torch.sin(xx * 0.7) * torch.cos(yy * 0.5) * 3).view(1, 1, H, W).requires_grad_()
pred = torch.sigmoid(logits)
pb = F.max_pool2d(1 - pred, 3, 1, 1) - (1 - pred)
gb = F.max_pool2d(1 - gt, 3, 1, 1) - (1 - gt)
P = (pb * gb).sum() / (pb.sum() + 1e-7)
R = (pb * gb).sum() / (gb.sum() + 1e-7)
bf1 = 2 * P * R / (P + R + 1e-7)
loss = 1 - bf1
loss.backward()
print(f"{loss.item():.5f}", logits.grad.abs().sum().item() > 0)
print(logits.grad[0, 0, 3].numpy().round(4))

weights = 1 + 4 * boundary
bce = F.binary_cross_entropy_with_logits(logits, gt, weight=weights)
print(f"{bce.item():.5f}")
bce_map = F.binary_cross_entropy_with_logits(logits, gt, reduction="none")
print(f"{(bce_map * weights).sum().item() / weights.sum().item():.5f}")


def soft_erode(img):
    p1 = -F.max_pool2d(-img, (3, 1), (1, 1), (1, 0))
    p2 = -F.max_pool2d(-img, (1, 3), (1, 1), (0, 1))
    return torch.min(p1, p2)


def soft_skel(img, iters=3):
    skel = F.relu(img - dilate(soft_erode(img)))
    for _ in range(iters):
        img = soft_erode(img)
        delta = F.relu(img - dilate(soft_erode(img)))
        skel = skel + F.relu(delta - skel * delta)
    return skel


print(soft_skel(gt)[0, 0])
out, idx = F.max_pool2d(gt * (xx + 1), 2, return_indices=True)
print(out[0, 0], idx[0, 0])
print(F.max_unpool2d(out, idx, 2)[0, 0].sum())
try:
    F.pad(gt, (8, 8, 0, 0), mode="reflect")
except Exception as e:
    print(type(e).__name__, e)
