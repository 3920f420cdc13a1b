# Mixup and CutMix applied to a batch inside the training loop (timm / torchvision v2 style):
# permuted partner via flip, one_hot soft targets mixed with lam, box area adjusting lam,
# soft-target cross entropy with label smoothing.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, K = 8, 2, 6, 6, 4
imgs = torch.stack([torch.sin(torch.arange(C * H * W, dtype=torch.float32) * 0.05 * (i + 1)).view(C, H, W)
                    for i in range(N)])
labels = torch.arange(N) % K


def one_hot(y, smoothing=0.0):
    off = smoothing / K
    return torch.full((y.size(0), K), off).scatter_(1, y.unsqueeze(1), 1.0 - smoothing + off)


def mixup(x, y, lam, smoothing=0.1):
    perm = torch.arange(x.size(0) - 1, -1, -1)
    mixed = lam * x + (1 - lam) * x[perm]
    targets = lam * one_hot(y, smoothing) + (1 - lam) * one_hot(y[perm], smoothing)
    return mixed, targets


def rand_bbox(h, w, lam, cy, cx):
    cut = math.sqrt(1.0 - lam)
    ch, cw = int(h * cut), int(w * cut)
    y1, y2 = max(cy - ch // 2, 0), min(cy + ch // 2, h)
    x1, x2 = max(cx - cw // 2, 0), min(cx + cw // 2, w)
    return y1, y2, x1, x2


def cutmix(x, y, lam, cy, cx):
    x = x.clone()
    perm = x.flip(0).roll(1, 0)
    y_perm = y.flip(0).roll(1, 0)
    y1, y2, x1, x2 = rand_bbox(x.size(2), x.size(3), lam, cy, cx)
    x[:, :, y1:y2, x1:x2] = perm[:, :, y1:y2, x1:x2]
    lam = 1 - (y2 - y1) * (x2 - x1) / (x.size(2) * x.size(3))
    return x, lam * one_hot(y) + (1 - lam) * one_hot(y_perm), lam


model = nn.Sequential(nn.Conv2d(C, 3, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(3, K))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p))
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9, weight_decay=5e-4)
crit = nn.CrossEntropyLoss()
lams = [0.7, 0.35, 0.9, 0.55]
for step in range(16):
    lam = lams[step % 4]
    if step % 2 == 0:
        xb, yb = mixup(imgs, labels, lam)
        kind = "mixup"
    else:
        xb, yb, lam = cutmix(imgs, labels, lam, cy=1 + step % 4, cx=4 - step % 3)
        kind = "cutmix"
    loss = crit(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 2 == 1 or step < 4:
        print(step, kind, f"{lam:.4f}", f"{loss.item():.5f}", yb.sum(1).allclose(torch.ones(N)))

xb, yb = mixup(imgs, labels, 0.6)
print(xb.shape, yb[:2])
xc, yc, lam = cutmix(imgs, labels, 0.5, 3, 3)
print(lam, (xc != imgs).any(dim=(1, 2, 3)).tolist(), yc[0])
print(F.one_hot(labels, K).float().mul(0.8).add(0.05)[:3])
with torch.no_grad():
    model.eval()
    logits = model(imgs)
    print(logits.argmax(1).tolist(), f"{F.cross_entropy(logits, labels, label_smoothing=0.1).item():.5f}")
    print(f"{F.cross_entropy(logits, one_hot(labels, 0.1)).item():.5f}")
    mixed_loss = lam * F.cross_entropy(logits, labels) + (1 - lam) * F.cross_entropy(logits, labels.flip(0))
    print(f"{mixed_loss.item():.5f}")
