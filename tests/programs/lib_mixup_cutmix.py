# Mixup and CutMix on tensors (timm / torchvision v2 idiom) with a fixed lambda and a fixed
# permutation instead of random draws: flip, roll, box masks, soft targets and the mixed loss.
import math

import torch
import torch.nn.functional as F


def one_hot(x, num_classes, on_value=1., off_value=0.):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value).scatter_(1, x, on_value)


def mixup_target(target, num_classes, lam=1., smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1. - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1. - lam)


def rand_bbox_fixed(img_shape, lam, cy, cx):
    ratio = math.sqrt(1 - lam)
    img_h, img_w = img_shape[-2:]
    cut_h, cut_w = int(img_h * ratio), int(img_w * ratio)
    yl = max(0, min(img_h, cy - cut_h // 2)); yh = max(0, min(img_h, cy + cut_h // 2))
    xl = max(0, min(img_w, cx - cut_w // 2)); xh = max(0, min(img_w, cx + cut_w // 2))
    return yl, yh, xl, xh


x = torch.arange(4 * 1 * 4 * 4, dtype=torch.float32).view(4, 1, 4, 4)
target = torch.tensor([0, 1, 2, 1])
lam = 0.7
mixed = x.mul(lam).add_(x.flip(0).mul_(1. - lam))
print(mixed[:, 0, 0, :2])
print(mixup_target(target, 3, lam))
print(mixup_target(target, 3, lam, smoothing=0.1).sum(1))

perm = torch.tensor([2, 3, 0, 1])
x2 = x.clone()
yl, yh, xl, xh = rand_bbox_fixed(x.shape, 0.75, 2, 2)
print((yl, yh, xl, xh))
x2[:, :, yl:yh, xl:xh] = x[perm][:, :, yl:yh, xl:xh]
lam_adj = 1 - (yh - yl) * (xh - xl) / float(x.shape[-2] * x.shape[-1])
print(lam_adj, x2[0, 0])
rolled = x.roll(1, 0)
print(torch.equal(rolled[0], x[3]), rolled[:, 0, 0, 0])
box = torch.zeros(4, 4, dtype=torch.bool)
box[yl:yh, xl:xh] = True
x3 = torch.where(box, x.roll(1, 0), x)
print(x3[1, 0], box.sum().item(), box.float().mean())

logits = torch.linspace(-1, 1, 12).view(4, 3).requires_grad_()
soft = mixup_target(target, 3, lam)
loss_soft = torch.sum(-soft * F.log_softmax(logits, dim=-1), dim=-1).mean()
loss_ce = F.cross_entropy(logits, soft)
loss_mix = lam * F.cross_entropy(logits, target) + (1 - lam) * F.cross_entropy(logits, target.flip(0))
print(loss_soft, loss_ce, loss_mix)
print(torch.allclose(loss_soft, loss_ce), torch.allclose(loss_soft, loss_mix))
loss_mix.backward()
print(logits.grad)
beta = torch.distributions.Beta(torch.tensor([0.4]), torch.tensor([0.4]))
print(beta.mean, beta.batch_shape, beta.event_shape)
print(torch.distributions.Beta(2.0, 2.0).log_prob(torch.tensor(0.5)))
try:
    x[perm.float()]
except IndexError as e:
    print(type(e).__name__, e)
