# Original-U-Net idioms: valid (unpadded) convs with center-cropping of skip features, ConvTranspose2d
# called with output_size= to match odd skip sizes, F.pad to fix size mismatch, negative pad cropping.
import torch
import torch.nn as nn
import torch.nn.functional as F


def center_crop(feat, target_hw):
    _, _, h, w = feat.shape
    th, tw = target_hw
    dy, dx = (h - th) // 2, (w - tw) // 2
    return feat[:, :, dy:dy + th, dx:dx + tw]


up = nn.ConvTranspose2d(4, 2, kernel_size=3, stride=2, padding=1)
with torch.no_grad():
    up.weight.copy_(torch.linspace(-1, 1, up.weight.numel()).view_as(up.weight))
    up.bias.fill_(0.1)
x = torch.cos(torch.arange(4 * 5 * 5, dtype=torch.float32) * 0.4).view(1, 4, 5, 5)
print(up(x).shape)
for size in [(9, 9), (10, 10), (10, 9), [1, 2, 10, 10]]:
    y = up(x, output_size=size)
    print(size, y.shape, f"{y.sum().item():.4f}")
try:
    up(x, output_size=(12, 12))
except Exception as e:
    print(type(e).__name__, str(e)[:150])

up2 = nn.ConvTranspose2d(4, 2, 2, stride=2, output_padding=1, dilation=2)
print(up2, up2(x).shape)

skip = torch.sin(torch.arange(2 * 17 * 17, dtype=torch.float32)).view(1, 2, 17, 17)
dec = up(x)
crop = center_crop(skip, dec.shape[-2:])
print(crop.shape, crop[0, 0, 0, :3])
merged = torch.cat([crop, dec], dim=1)
print(merged.shape)

# "pad the smaller one" variant from milesial/Pytorch-UNet
x1 = up(x)
x2 = skip
diffY = x2.size()[2] - x1.size()[2]
diffX = x2.size()[3] - x1.size()[3]
x1p = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
print(diffY, diffX, x1p.shape, x1p[0, 0, :, 0].sum().item() == 0)
print(F.pad(skip, (-2, -3, -1, 0)).shape)
print(F.pad(skip, (-2, 1, 0, -4), value=7.0)[0, 0, 0])

valid = nn.Sequential(nn.Conv2d(2, 3, 3), nn.ReLU(), nn.Conv2d(3, 3, 3), nn.ReLU())
print(valid(skip).shape, nn.MaxPool2d(2)(skip).shape, nn.MaxPool2d(2, ceil_mode=True)(skip).shape)
try:
    torch.cat([skip, up(x)], dim=1)
except Exception as e:
    print(type(e).__name__, e)
