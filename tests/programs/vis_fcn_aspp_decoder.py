# Segmentation heads from FCN / DeepLab code: a transposed conv initialised with the classic
# bilinear-kernel helper (compared to F.interpolate), the "crop to input size" step, an ASPP
# block (parallel dilated 3x3 convs with padding=dilation + an image-pooling branch upsampled
# back with interpolate), concatenation, and the receptive field of dilated convs via input.grad.
import torch
import torch.nn as nn
import torch.nn.functional as F


def bilinear_kernel(in_ch, out_ch, k):
    factor = (k + 1) // 2
    center = factor - 1 if k % 2 == 1 else factor - 0.5
    og = torch.arange(k, dtype=torch.float32)
    filt = (1 - (og - center).abs() / factor)
    filt = filt[:, None] * filt[None, :]
    w = torch.zeros(in_ch, out_ch, k, k)
    w[range(in_ch), range(out_ch)] = filt
    return w


up = nn.ConvTranspose2d(2, 2, kernel_size=4, stride=2, padding=1, bias=False)
with torch.no_grad():
    up.weight.copy_(bilinear_kernel(2, 2, 4))
print(up.weight[0, 0])
x = torch.arange(2 * 2 * 3 * 3, dtype=torch.float32).view(2, 2, 3, 3)
y = up(x)
ref = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
print(y.shape, (y - ref)[0, 0, 1:-1, 1:-1].abs().max().item() < 1e-5)
print(y[0, 0], ref[0, 0])

# FCN-32s style: upsample by 8 with k=16, then crop the centre
up8 = nn.ConvTranspose2d(1, 1, 16, stride=8, bias=False)
with torch.no_grad():
    up8.weight.copy_(bilinear_kernel(1, 1, 16))
score = torch.linspace(0, 1, 9).view(1, 1, 3, 3)
big = up8(score)
off = (big.shape[-1] - 20) // 2
print(big.shape, big[..., off:off + 20, off:off + 20].shape, f"{big.sum().item():.2f}")


class ASPP(nn.Module):
    def __init__(self, cin, cout, rates=(1, 2, 3)):
        super().__init__()
        self.branches = nn.ModuleList(
            [nn.Conv2d(cin, cout, 1 if r == 1 else 3, padding=0 if r == 1 else r, dilation=r, bias=False) for r in rates])
        self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cin, cout, 1, bias=False), nn.ReLU())
        self.project = nn.Conv2d(cout * (len(rates) + 1), cout, 1)

    def forward(self, x):
        feats = [b(x) for b in self.branches]
        feats.append(F.interpolate(self.pool(x), size=x.shape[-2:], mode="bilinear", align_corners=False))
        return self.project(torch.cat(feats, dim=1))


aspp = ASPP(3, 4)
with torch.no_grad():
    for i, p in enumerate(aspp.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p) * 0.2)
print(aspp)
inp = torch.sin(torch.arange(1 * 3 * 9 * 9, dtype=torch.float32) * 0.2).view(1, 3, 9, 9)
out = aspp(inp)
print(out.shape, out[0, :, 4, 4], [tuple(b(inp).shape) for b in aspp.branches])
print(sum(p.numel() for p in aspp.parameters()))

# receptive field of each dilated branch via the gradient of one output pixel
for b in aspp.branches:
    xi = inp.clone().requires_grad_(True)
    b(xi)[0, 0, 4, 4].backward()
    nz = xi.grad[0, 0].nonzero()
    print(b.dilation, (nz[:, 0].max() - nz[:, 0].min() + 1).item(), nz.shape[0])
xi = torch.zeros(1, 3, 9, 9, requires_grad=True)
aspp(xi)[0, 0, 0, 0].backward()
print((xi.grad != 0).sum().item())
