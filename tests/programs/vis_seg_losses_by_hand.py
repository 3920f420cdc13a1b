# Segmentation / detection losses written by hand, as in Kaggle kernels and repos: binary and
# multi-class soft Dice, Jaccard/IoU loss, focal loss (sigmoid and softmax forms with alpha/gamma),
# Tversky, boundary-weighted BCE using max-pool dilation/erosion of the mask, box IoU / GIoU for
# xyxy boxes, and their gradients. Values deterministic from sin/cos logits.
import torch
import torch.nn.functional as F

N, K, H, W = 2, 3, 6, 6
logits = torch.sin(torch.arange(N * K * H * W, dtype=torch.float32) * 0.37).view(N, K, H, W) * 3
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
target = ((xx + yy) % K).unsqueeze(0).repeat(N, 1, 1)
target[1, :2] = 0
print(target[1], target.dtype, torch.bincount(target.flatten()))


def soft_dice(logits, target, eps=1e-6):
    probs = logits.softmax(dim=1)
    onehot = F.one_hot(target, K).permute(0, 3, 1, 2).float()
    dims = (0, 2, 3)
    inter = torch.sum(probs * onehot, dims)
    card = torch.sum(probs + onehot, dims)
    return 1 - (2 * inter / (card + eps)).mean(), inter, card


def focal(logits, target, gamma=2.0, alpha=None):
    logp = F.log_softmax(logits, dim=1)
    logpt = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    pt = logpt.exp()
    loss = -((1 - pt) ** gamma) * logpt
    if alpha is not None:
        loss = loss * alpha[target]
    return loss.mean()


def sigmoid_focal(x, t, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(x)
    ce = F.binary_cross_entropy_with_logits(x, t, reduction="none")
    p_t = p * t + (1 - p) * (1 - t)
    return ((alpha * t + (1 - alpha) * (1 - t)) * ce * (1 - p_t) ** gamma).sum() / t.sum().clamp(min=1)


def tversky(x, t, a=0.3, b=0.7, eps=1.0):
    p = torch.sigmoid(x)
    tp = (p * t).sum()
    fp = (p * (1 - t)).sum()
    fn = ((1 - p) * t).sum()
    return 1 - (tp + eps) / (tp + a * fp + b * fn + eps)


lg = logits.clone().requires_grad_(True)
d, inter, card = soft_dice(lg, target)
print(f"{d.item():.5f}", inter.detach(), card.detach())
fl = focal(lg, target)
fl0 = focal(logits, target, gamma=0.0)
print(f"{fl.item():.5f} {fl0.item():.5f} {F.cross_entropy(logits, target).item():.5f}")
print(f"{focal(logits, target, alpha=torch.tensor([0.2, 0.3, 0.5])).item():.5f}")
(d + fl).backward()
print(lg.grad[0, :, 0, 0], lg.grad.abs().sum().item() > 0)

binlog = logits[:, 0]
mask = (target == 1).float()
print(f"{sigmoid_focal(binlog, mask).item():.5f} {tversky(binlog, mask).item():.5f}")
pred = (binlog > 0).float()
inter = (pred * mask).sum((1, 2))
union = (pred + mask).clamp(max=1).sum((1, 2))
print("iou per image", inter / union)

# boundary weights via max-pool dilation / erosion
m4 = mask.unsqueeze(1)
dil = F.max_pool2d(m4, 3, stride=1, padding=1)
ero = -F.max_pool2d(-m4, 3, stride=1, padding=1)
boundary = (dil - ero)[:, 0]
print(boundary[0], boundary.sum())
wbce = F.binary_cross_entropy_with_logits(binlog, mask, weight=1 + 4 * boundary)
print(f"{wbce.item():.5f}")


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = area_a[:, None] + area_b[None] - inter
    iou = inter / union
    lt_c = torch.min(a[:, None, :2], b[None, :, :2])
    rb_c = torch.max(a[:, None, 2:], b[None, :, 2:])
    area_c = (rb_c - lt_c).prod(-1)
    return iou, iou - (area_c - union) / area_c


boxes_a = torch.tensor([[0., 0., 2., 2.], [1., 1., 4., 3.]], requires_grad=True)
boxes_b = torch.tensor([[1., 1., 3., 3.], [5., 5., 6., 6.], [0., 0., 2., 2.]])
iou, giou = box_iou(boxes_a, boxes_b)
print(iou, giou)
(1 - giou.diagonal()).sum().backward()
print(boxes_a.grad)
