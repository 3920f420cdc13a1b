# FCN-8s style: ConvTranspose2d upsampling layers initialised with a bilinear kernel (get_upsampling_weight
# via numpy ogrid), score-layer fusion with crops, nn.init.dirac_/zeros_/constant_ initialisation.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_upsampling_weight(in_channels, out_channels, kernel_size):
    factor = (kernel_size + 1) // 2
    center = factor - 1 if kernel_size % 2 == 1 else factor - 0.5
    og = np.ogrid[:kernel_size, :kernel_size]
    filt = (1 - abs(og[0] - center) / factor) * (1 - abs(og[1] - center) / factor)
    weight = np.zeros((in_channels, out_channels, kernel_size, kernel_size), dtype=np.float64)
    weight[range(in_channels), range(out_channels), :, :] = filt
    return torch.from_numpy(weight).float()


n_class = 3
upscore2 = nn.ConvTranspose2d(n_class, n_class, 4, stride=2, bias=False)
upscore8 = nn.ConvTranspose2d(n_class, n_class, 16, stride=8, bias=False)
for m in [upscore2, upscore8]:
    m.weight.data.copy_(get_upsampling_weight(m.in_channels, m.out_channels, m.kernel_size[0]))
print(upscore2.weight[0, 0])
print(upscore2.weight.dtype, upscore2.weight.requires_grad, upscore8.weight[1, 1, 7, 5:11])

score_pool4 = nn.Conv2d(5, n_class, 1)
score_fr = nn.Conv2d(6, n_class, 1)
nn.init.zeros_(score_pool4.weight)
nn.init.constant_(score_pool4.bias, 0.5)
with torch.no_grad():
    score_fr.weight.copy_(torch.arange(18, dtype=torch.float32).view(3, 6, 1, 1) / 18)
    score_fr.bias.zero_()
ident = nn.Conv2d(n_class, n_class, 3, padding=1, bias=False)
nn.init.dirac_(ident.weight)
print(ident.weight.sum(dim=(2, 3)), ident.weight[2, 2])

pool4 = torch.sin(torch.arange(5 * 14 * 14, dtype=torch.float32) * 0.1).view(1, 5, 14, 14)
fr = torch.cos(torch.arange(6 * 5 * 5, dtype=torch.float32) * 0.2).view(1, 6, 5, 5).requires_grad_()
h = score_fr(fr)
up2 = upscore2(h)
print(h.shape, up2.shape)
sp4 = score_pool4(pool4)[:, :, 1:1 + up2.size(2), 1:1 + up2.size(3)]
fused = ident(up2 + sp4)
out = upscore8(fused)
out = out[:, :, 4:4 + 48, 4:4 + 48].contiguous()
print(out.shape, out[0, :, 20, 20].detach().numpy().round(4))
print(torch.allclose(ident(up2), up2))
out.sum().backward()
print(fr.grad[0, :, 2, 2].numpy().round(3), upscore8.weight.grad.shape)

x = torch.arange(9, dtype=torch.float32).view(1, 1, 3, 3)
w = get_upsampling_weight(1, 1, 4)
y = F.conv_transpose2d(x, w, stride=2, padding=1)
print(y)
print(F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False))
