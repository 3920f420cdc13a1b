# Inference tricks from segmentation toolkits: sliding-window prediction with overlap averaged via a
# count map, F.unfold/F.fold patching, horizontal-flip + multi-scale test-time augmentation.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p) * 0.5)
net.eval()

H, W = 10, 13
img = torch.sin(torch.arange(H * W, dtype=torch.float32) * 0.13).view(1, 1, H, W)


def slide(img, crop=6, stride=4, ncls=3):
    _, _, h, w = img.shape
    preds = img.new_zeros(1, ncls, h, w)
    count = img.new_zeros(1, 1, h, w)
    hg = max(h - crop + stride - 1, 0) // stride + 1
    wg = max(w - crop + stride - 1, 0) // stride + 1
    for i in range(hg):
        for j in range(wg):
            y1, x1 = i * stride, j * stride
            y2, x2 = min(y1 + crop, h), min(x1 + crop, w)
            y1, x1 = max(y2 - crop, 0), max(x2 - crop, 0)
            out = net(img[:, :, y1:y2, x1:x2])
            preds += F.pad(out, (int(x1), int(w - x2), int(y1), int(h - y2)))
            count[:, :, y1:y2, x1:x2] += 1
    return preds / count, count


with torch.no_grad():
    p, cnt = slide(img)
print(cnt[0, 0].int())
print(p.shape, p[0, :, 4, 4].numpy().round(4))
print(p.argmax(1)[0])

with torch.no_grad():
    logit = net(img).softmax(1)
    logit += net(img.flip(-1)).flip(-1).softmax(1)
    for s in [0.5, 1.5]:
        xs = F.interpolate(img, scale_factor=s, mode="bilinear", align_corners=False)
        o = net(xs)
        logit += F.interpolate(o, size=(H, W), mode="bilinear", align_corners=False).softmax(1)
    logit /= 4
print(logit.sum(1).allclose(torch.ones(1, H, W)), logit[0, :, 0, :3].numpy().round(4))

patches = F.unfold(img, kernel_size=4, stride=2)
print(patches.shape)
folded = F.fold(patches, output_size=(H, W), kernel_size=4, stride=2)
norm = F.fold(torch.ones_like(patches), output_size=(H, W), kernel_size=4, stride=2)
print(folded.shape, norm[0, 0, :3], (norm == 0).sum())
rec = torch.where(norm > 0, folded / norm.clamp(min=1), img)
print(torch.allclose(rec, img))
pad_img = F.pad(img, (0, 3, 0, 2), mode="constant", value=0)
print(pad_img.shape, F.unfold(pad_img, (4, 4), stride=4).shape)
print(F.unfold(img, 3, dilation=2, padding=1, stride=(2, 3)).shape)
