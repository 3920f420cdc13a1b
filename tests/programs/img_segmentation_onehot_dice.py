# Semantic-segmentation loss/metric code as found in many repos: label maps (N, H, W) -> one-hot
# (N, C, H, W) via F.one_hot + permute, soft Dice loss, per-class IoU from a confusion matrix,
# CrossEntropyLoss on 4-D logits with class weights / ignore_index / reduction='none',
# BCEWithLogits on multi-label masks with per-channel pos_weight, and the gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

C = 3
target = torch.tensor([[[0, 0, 1, 1], [0, 2, 2, 1], [2, 2, 1, 1]],
                       [[1, 1, 1, 0], [0, 0, 2, 2], [0, 1, 2, 255]]])
logits = torch.sin(torch.arange(2 * C * 3 * 4, dtype=torch.float32) * 0.9).view(2, C, 3, 4) * 3
logits.requires_grad_()

valid = target != 255
oh = F.one_hot(target.clamp(max=C - 1), C).permute(0, 3, 1, 2).float()
print(oh.shape, oh.dtype, oh.is_contiguous(), oh[1, :, 2])
oh = oh * valid.unsqueeze(1)
print(oh.sum(dim=(0, 2, 3)))


def dice_loss(logits, onehot, eps=1.0):
    probs = logits.softmax(dim=1)
    dims = (0, 2, 3)
    inter = (probs * onehot).sum(dims)
    card = probs.sum(dims) + onehot.sum(dims)
    dice = (2 * inter + eps) / (card + eps)
    return 1 - dice.mean(), dice


loss, per_class = dice_loss(logits, oh)
print(loss, per_class)
loss.backward()
print(logits.grad[0, :, 0])
logits.grad = None

ce = nn.CrossEntropyLoss(ignore_index=255, weight=torch.tensor([1.0, 2.0, 0.5]))
l = ce(logits, target)
print(l, l.grad_fn.name())
l.backward()
print(logits.grad[1, :, 2])
none = F.cross_entropy(logits, target, ignore_index=255, reduction="none")
print(none.shape, none[1])
print(F.nll_loss(F.log_softmax(logits, dim=1), target, ignore_index=255, reduction="sum"))

# predictions, confusion matrix and IoU
pred = logits.argmax(dim=1)
print(pred)
m = valid
cm = torch.bincount(target[m] * C + pred[m], minlength=C * C).view(C, C)
print(cm)
iou = cm.diag() / (cm.sum(0) + cm.sum(1) - cm.diag()).clamp(min=1)
print(iou, iou.mean(), (pred[m] == target[m]).float().mean())

# multi-label masks with pos_weight per channel
masks = (oh > 0).float()
pw = torch.tensor([1.0, 3.0, 0.5]).view(C, 1, 1)
bce = nn.BCEWithLogitsLoss(pos_weight=pw)
print(bce(logits.detach(), masks))
print(F.binary_cross_entropy_with_logits(logits.detach(), masks, reduction="none")[0, 0])
print(F.binary_cross_entropy(torch.sigmoid(logits.detach()), masks, weight=torch.tensor([1., 0., 1.]).view(C, 1, 1)))

for fn in [lambda: F.cross_entropy(logits, target.float()),
           lambda: F.cross_entropy(logits, target[:, :2]),
           lambda: F.cross_entropy(logits, target),
           lambda: F.one_hot(target, C),
           lambda: F.one_hot(target.clamp(max=2).int(), C).shape,
           lambda: F.binary_cross_entropy_with_logits(logits, masks[:, :2])]:
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__, e)

# nn.Softmax2d: softmax over the channel dim of (N, C, H, W) logits
sm = nn.Softmax2d()
probs = sm(logits.detach())
print(sm, torch.allclose(probs.sum(dim=1), torch.ones(2, 3, 4)), torch.allclose(probs, logits.detach().softmax(dim=1)))
