# Box format conversions (xyxy <-> cxcywh via unbind/stack) and pairwise IoU / GIoU / DIoU / CIoU
# written with broadcasting max/min and clamp, plus a GIoU loss whose gradients flow to predictions.
import math
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def box_cxcywh_to_xyxy(x):
    cx, cy, w, h = x.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


def box_xyxy_to_cxcywh(x):
    x0, y0, x1, y1 = x.unbind(-1)
    return torch.stack([(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0], dim=-1)


def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def box_iou(a, b):
    area1, area2 = box_area(a), box_area(b)
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    return inter / union, union


def generalized_box_iou(a, b):
    assert (a[:, 2:] >= a[:, :2]).all()
    iou, union = box_iou(a, b)
    lt = torch.min(a[:, None, :2], b[:, :2])
    rb = torch.max(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[:, :, 0] * wh[:, :, 1]
    return iou - (area - union) / area


def diou_ciou(a, b, eps=1e-7):
    iou, _ = box_iou(a, b)
    ca, cb = box_xyxy_to_cxcywh(a), box_xyxy_to_cxcywh(b)
    center_dist = ((ca[:, None, :2] - cb[None, :, :2]) ** 2).sum(-1)
    lt = torch.min(a[:, None, :2], b[:, :2])
    rb = torch.max(a[:, None, 2:], b[:, 2:])
    diag = ((rb - lt) ** 2).sum(-1) + eps
    diou = iou - center_dist / diag
    v = (4 / math.pi ** 2) * (torch.atan(ca[:, None, 2] / ca[:, None, 3]) - torch.atan(cb[None, :, 2] / cb[None, :, 3])) ** 2
    with torch.no_grad():
        alpha = v / (1 - iou + v + eps)
    return diou, diou - alpha * v


k = torch.arange(6, dtype=torch.float32)
cxcywh = torch.stack([10 + 3 * torch.sin(k), 8 + 2 * torch.cos(k), 4 + k % 3, 3 + k % 2], dim=1)
xyxy = box_cxcywh_to_xyxy(cxcywh)
print(xyxy)
print("roundtrip", torch.allclose(box_xyxy_to_cxcywh(xyxy), cxcywh, atol=1e-6))
iou, union = box_iou(xyxy[:3], xyxy[3:])
print(iou)
print(union)
g = generalized_box_iou(xyxy, xyxy)
print(g)
print("diag ones", torch.diagonal(g).eq(1).all().item())
d, c = diou_ciou(xyxy[:3], xyxy)
print(d)
print(c)

# GIoU loss on matched pairs
pred = cxcywh.clone().add(0.25).requires_grad_(True)
target = cxcywh.flip(0)
giou = torch.diag(generalized_box_iou(box_cxcywh_to_xyxy(pred), box_cxcywh_to_xyxy(target)))
loss = (1 - giou).mean()
loss.backward()
print(f"giou loss {loss.item():.4f}")
print(pred.grad)
print(giou.grad_fn.name())
