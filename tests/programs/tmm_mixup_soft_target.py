# timm Mixup / CutMix targets: one_hot with label smoothing (off/on values via full().scatter_),
# batch-flip mixing x.mul_(lam).add_(x.flip(0).mul_(1 - lam)), a cutmix box pasted from flip(0),
# lam corrected by box area, and SoftTargetCrossEntropy / LabelSmoothingCrossEntropy losses.
import torch
import torch.nn as nn
import torch.nn.functional as F


def one_hot(x, num_classes, on_value=1.0, off_value=0.0):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=x.device).scatter_(1, x, on_value)


def mixup_target(target, num_classes, lam=1.0, smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1.0 - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1.0 - lam)


def cutmix_bbox(img_shape, cut_frac):
    img_h, img_w = img_shape[-2:]
    cut_h, cut_w = int(img_h * cut_frac), int(img_w * cut_frac)
    cy, cx = img_h // 2, img_w // 3
    yl, yh = max(cy - cut_h // 2, 0), min(cy + cut_h // 2, img_h)
    xl, xh = max(cx - cut_w // 2, 0), min(cx + cut_w // 2, img_w)
    return yl, yh, xl, xh


class SoftTargetCrossEntropy(nn.Module):
    def forward(self, x, target):
        loss = torch.sum(-target * F.log_softmax(x, dim=-1), dim=-1)
        return loss.mean()


class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing
        self.confidence = 1.0 - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1)).squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        return (self.confidence * nll_loss + self.smoothing * smooth_loss).mean()


num_classes = 5
target = torch.tensor([0, 3, 1, 4])
print(one_hot(target, num_classes, on_value=0.92, off_value=0.02))
t = mixup_target(target, num_classes, lam=0.7, smoothing=0.1)
print(t, t.sum(1))

x = torch.arange(4 * 1 * 4 * 6, dtype=torch.float32).reshape(4, 1, 4, 6)
xm = x.clone()
lam = 0.7
x_flipped = xm.flip(0).mul_(1.0 - lam)
xm.mul_(lam).add_(x_flipped)
print(xm[0, 0], xm[3, 0, 0])

xc = x.clone()
yl, yh, xl, xh = cutmix_bbox(xc.shape, 0.5)
xc[:, :, yl:yh, xl:xh] = xc.flip(0)[:, :, yl:yh, xl:xh]
lam_c = 1.0 - (yh - yl) * (xh - xl) / float(xc.shape[-2] * xc.shape[-1])
print((yl, yh, xl, xh), round(lam_c, 4))
print(xc[1, 0])

torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(24, num_classes))
with torch.no_grad():
    model[1].weight.copy_(torch.sin(torch.arange(120, dtype=torch.float32)).reshape(5, 24) * 0.05)
    model[1].bias.zero_()
soft = SoftTargetCrossEntropy()
ls = LabelSmoothingCrossEntropy(0.1)
logits = model(x / 50)
print(f"{soft(logits, mixup_target(target, num_classes, lam_c, 0.1)).item():.6f}")
print(f"{ls(logits, target).item():.6f}", f"{F.cross_entropy(logits, target, label_smoothing=0.1).item():.6f}")
print(f"{F.cross_entropy(logits, one_hot(target, num_classes, 0.92, 0.02)).item():.6f}",
      f"{soft(logits, one_hot(target, num_classes, 0.92, 0.02)).item():.6f}")

opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for step in range(10):
    inp = x.clone() / 50
    inp.mul_(lam).add_(inp.flip(0).mul_(1 - lam))
    loss = soft(model(inp), mixup_target(target, num_classes, lam, 0.1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}")
print(model[1].bias.grad)
