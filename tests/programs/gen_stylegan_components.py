# StyleGAN / ProGAN components written the way the reimplementations do: PixelNorm with
# torch.rsqrt, equalized-learning-rate layers (weight * scale at runtime), AdaIN from instance
# statistics, the minibatch-stddev layer, modulated/demodulated conv via grouped F.conv2d,
# noise injection with a zero-initialised scale, nearest upsampling, and the R1 penalty.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelNorm(nn.Module):
    def forward(self, x):
        return x * torch.rsqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-8)


class EqualLinear(nn.Module):
    def __init__(self, in_dim, out_dim, lr_mul=1.0):
        super().__init__()
        self.weight = nn.Parameter(torch.cos(torch.arange(out_dim * in_dim, dtype=torch.float32) * 0.7).view(out_dim, in_dim).div_(lr_mul))
        self.bias = nn.Parameter(torch.zeros(out_dim).fill_(0.1))
        self.scale = (1 / math.sqrt(in_dim)) * lr_mul
        self.lr_mul = lr_mul

    def forward(self, x):
        return F.linear(x, self.weight * self.scale, bias=self.bias * self.lr_mul)

    def __repr__(self):
        return f'{self.__class__.__name__}({self.weight.shape[1]}, {self.weight.shape[0]})'


def adain(content, style_mean, style_std, eps=1e-5):
    size = content.size()
    c_mean = content.view(size[0], size[1], -1).mean(dim=2).view(size[0], size[1], 1, 1)
    c_std = (content.view(size[0], size[1], -1).var(dim=2) + eps).sqrt().view(size[0], size[1], 1, 1)
    return (content - c_mean.expand(size)) / c_std.expand(size) * style_std + style_mean


def minibatch_stddev(x, group_size=2):
    N, C, H, W = x.shape
    G = min(group_size, N)
    y = x.reshape(G, -1, C, H, W)
    y = y - y.mean(dim=0)
    y = y.square().mean(dim=0)
    y = (y + 1e-8).sqrt()
    y = y.mean(dim=[1, 2, 3])
    y = y.reshape(-1, 1, 1, 1).repeat(G, 1, H, W)
    return torch.cat([x, y], dim=1)


def modulated_conv2d(x, weight, styles, demodulate=True):
    batch, in_ch, H, W = x.shape
    out_ch, _, k, _ = weight.shape
    w = weight[None] * styles[:, None, :, None, None]
    if demodulate:
        dcoefs = (w.square().sum(dim=[2, 3, 4]) + 1e-8).rsqrt()
        w = w * dcoefs[:, :, None, None, None]
    x = x.reshape(1, -1, H, W)
    w = w.reshape(-1, in_ch, k, k)
    out = F.conv2d(x, w, padding=k // 2, groups=batch)
    return out.reshape(batch, out_ch, *out.shape[2:])


z = torch.linspace(-2, 2, 3 * 6).view(3, 6)
mapping = nn.Sequential(PixelNorm(), EqualLinear(6, 6, lr_mul=0.01), nn.LeakyReLU(0.2), EqualLinear(6, 4))
print(mapping)
print(PixelNorm()(z).pow(2).mean(1))
w_lat = mapping(z)
print(w_lat, w_lat.grad_fn.name())
print(torch.rsqrt(torch.tensor([4.0, 0.0, -1.0])))

x = torch.sin(torch.arange(3 * 4 * 4 * 4, dtype=torch.float32) * 0.3).view(3, 4, 4, 4)
style_mean, style_std = w_lat[:, :, None, None], w_lat.abs()[:, :, None, None] + 1
y = adain(x, style_mean, style_std)
print(y.shape, y.mean(dim=(2, 3))[0], y.std(dim=(2, 3))[0])
print(F.instance_norm(x)[0, 0, 0], ((x - x.mean((2, 3), keepdim=True)) / x.std((2, 3), unbiased=False, keepdim=True).add(1e-5))[0, 0, 0])
mb = minibatch_stddev(torch.cat([x, x[:1] * 2]), group_size=2)
print(mb.shape, mb[:, -1, 0, 0])

weight = torch.cos(torch.arange(5 * 4 * 3 * 3, dtype=torch.float32) * 0.11).view(5, 4, 3, 3).requires_grad_()
styles = (w_lat + 1).detach().requires_grad_()
out = modulated_conv2d(x, weight, styles)
print(out.shape, out[1, 2, 0], out.grad_fn.name())
out.square().mean().backward()
print(weight.grad[0, 0], styles.grad)
try:
    F.conv2d(x.reshape(1, -1, 4, 4), weight.detach().repeat(3, 1, 1, 1), groups=2)
except RuntimeError as e:
    print(type(e).__name__, e)

noise_strength = nn.Parameter(torch.zeros([]))
noise = torch.cos(torch.arange(16.)).view(1, 1, 4, 4)
h = out.detach() + noise * noise_strength
up = F.interpolate(h, scale_factor=2, mode='nearest')
print(noise_strength, h.grad_fn.name(), up.shape, nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False))
(up.sum()).backward()
print(noise_strength.grad)

# R1 regularization on real images, discriminator with equalized conv and leaky relu
D = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.LeakyReLU(0.2), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(4 * 4 * 4, 1))
with torch.no_grad():
    for i, p in enumerate(D.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p) * 0.3)
real_img = torch.cos(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.13).view(2, 3, 8, 8).requires_grad_(True)
real_pred = D(real_img)
grad_real, = torch.autograd.grad(outputs=real_pred.sum(), inputs=real_img, create_graph=True)
r1 = grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()
(10 / 2 * r1 * 16 + 0 * real_pred[0]).sum().backward()
print(f"r1 {r1.item():.6f}", grad_real.grad_fn.name(), D[0].bias.grad, D[4].bias.grad)
