# RetinaNet-style losses on matched anchors: sigmoid focal loss (hand-written and with
# binary_cross_entropy_with_logits), smooth-L1 with beta, F.smooth_l1_loss / huber_loss, GIoU loss,
# normalized by number of positives; gradients printed.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


def smooth_l1(input, target, beta=1.0 / 9):
    n = torch.abs(input - target)
    cond = n < beta
    return torch.where(cond, 0.5 * n ** 2 / beta, n - 0.5 * beta)


num_anchors, num_classes = 8, 3
a = torch.arange(num_anchors * num_classes, dtype=torch.float32).view(num_anchors, num_classes)
cls_logits = torch.sin(a * 0.7) * 3
cls_logits.requires_grad_()
matched = torch.tensor([0, -1, 2, -2, 1, -1, 0, 2])  # -1 background, -2 ignore
valid = matched != -2
foreground = matched >= 0
num_fg = foreground.sum().clamp(min=1)
gt_classes_target = torch.zeros_like(cls_logits)
gt_classes_target[foreground, matched[foreground]] = 1.0
print(gt_classes_target)
loss_cls = sigmoid_focal_loss(cls_logits[valid], gt_classes_target[valid], reduction="sum") / num_fg
print(f"cls loss {loss_cls.item():.5f}")
loss_cls.backward()
print(cls_logits.grad)

# one-hot via F.one_hot with a background column dropped
oh = F.one_hot(matched.clamp(min=-1) + 1, num_classes + 1)[:, 1:]
print(oh.dtype, torch.equal(oh.float(), gt_classes_target))

# box regression on positives
deltas = (torch.cos(torch.arange(num_anchors * 4.0)) * 0.3).view(num_anchors, 4).requires_grad_()
targets = torch.linspace(-0.4, 0.4, num_anchors * 4).view(num_anchors, 4)
l1 = smooth_l1(deltas[foreground], targets[foreground]).sum() / num_fg
l2 = F.smooth_l1_loss(deltas[foreground], targets[foreground], beta=1.0 / 9, reduction="sum") / num_fg
l3 = F.huber_loss(deltas[foreground], targets[foreground], delta=0.1)
l4 = F.l1_loss(deltas[foreground], targets[foreground], reduction="sum") / num_fg
print(f"{l1.item():.5f} {l2.item():.5f} {l3.item():.5f} {l4.item():.5f}")
(l1 + l3).backward()
print(deltas.grad)
print(l2.grad_fn.name(), l1.grad_fn.name())

# GIoU loss between decoded boxes
def giou_loss(b1, b2, eps=1e-7):
    x1, y1, x2, y2 = b1.unbind(dim=-1)
    x1g, y1g, x2g, y2g = b2.unbind(dim=-1)
    xkis1, ykis1 = torch.max(x1, x1g), torch.max(y1, y1g)
    xkis2, ykis2 = torch.min(x2, x2g), torch.min(y2, y2g)
    intsctk = torch.zeros_like(x1)
    mask = (ykis2 > ykis1) & (xkis2 > xkis1)
    intsctk[mask] = (xkis2[mask] - xkis1[mask]) * (ykis2[mask] - ykis1[mask])
    unionk = (x2 - x1) * (y2 - y1) + (x2g - x1g) * (y2g - y1g) - intsctk
    iouk = intsctk / (unionk + eps)
    xc1, yc1 = torch.min(x1, x1g), torch.min(y1, y1g)
    xc2, yc2 = torch.max(x2, x2g), torch.max(y2, y2g)
    area_c = (xc2 - xc1) * (yc2 - yc1)
    return 1 - (iouk - ((area_c - unionk) / (area_c + eps)))


pb = torch.tensor([[0., 0., 4., 4.], [1., 1., 3., 5.], [10., 10., 12., 12.]], requires_grad=True)
tb = torch.tensor([[1., 1., 5., 5.], [1., 1., 3., 5.], [0., 0., 2., 2.]])
gl = giou_loss(pb, tb)
print(gl)
gl.sum().backward()
print(pb.grad)
