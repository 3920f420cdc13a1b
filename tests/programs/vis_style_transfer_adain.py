# Fast neural style transfer building blocks (Johnson et al. / AdaIN repos): ReflectionPad2d +
# Conv2d "ConvLayer", InstanceNorm2d(affine=True) residual blocks, upsample-then-conv instead of
# deconv, Gram matrices for the style loss, total-variation loss, AdaIN written by hand with
# per-channel mean/std, and a few Adam steps on the image itself.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvLayer(nn.Module):
    def __init__(self, cin, cout, k, stride=1, upsample=None):
        super().__init__()
        self.upsample = upsample
        self.pad = nn.ReflectionPad2d(k // 2)
        self.conv = nn.Conv2d(cin, cout, k, stride)

    def forward(self, x):
        if self.upsample:
            x = F.interpolate(x, mode="nearest", scale_factor=self.upsample)
        return self.conv(self.pad(x))


class Residual(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1, self.n1 = ConvLayer(c, c, 3), nn.InstanceNorm2d(c, affine=True)
        self.c2, self.n2 = ConvLayer(c, c, 3), nn.InstanceNorm2d(c, affine=True)

    def forward(self, x):
        return x + self.n2(self.c2(F.relu(self.n1(self.c1(x)))))


net = nn.Sequential(ConvLayer(3, 4, 5), nn.InstanceNorm2d(4, affine=True), nn.ReLU(),
                    ConvLayer(4, 6, 3, stride=2), nn.ReLU(), Residual(6),
                    ConvLayer(6, 4, 3, upsample=2), nn.ReLU(), ConvLayer(4, 3, 5))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).view_as(p) * 0.3 + (1.0 if p.dim() == 1 and i % 2 == 1 else 0.0))
print(net[5])
print([k for k in net.state_dict() if "n1" in k], sum(p.numel() for p in net.parameters()))

content = torch.sin(torch.arange(3 * 8 * 8, dtype=torch.float32).view(1, 3, 8, 8) * 0.09)
style = torch.cos(torch.arange(3 * 8 * 8, dtype=torch.float32).view(1, 3, 8, 8) * 0.23) * 0.5 + 0.5
out = net(content)
print(out.shape, out[0, :, 0, 0])


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f.bmm(f.transpose(1, 2)) / (c * h * w)


def tv_loss(x):
    return (x[..., 1:, :] - x[..., :-1, :]).abs().mean() + (x[..., :, 1:] - x[..., :, :-1]).abs().mean()


print(gram(style), f"{tv_loss(style).item():.5f}")


def adain(c, s, eps=1e-5):
    cm, cs = c.mean(dim=(2, 3), keepdim=True), (c.var(dim=(2, 3), keepdim=True) + eps).sqrt()
    sm, ss = s.mean(dim=(2, 3), keepdim=True), (s.var(dim=(2, 3), keepdim=True) + eps).sqrt()
    return (c - cm) / cs * ss + sm


t = adain(content, style)
print(torch.allclose(t.mean((2, 3)), style.mean((2, 3)), atol=1e-5), torch.allclose(t.std((2, 3)), style.std((2, 3)), atol=1e-3))
inorm = F.instance_norm(content)
print(torch.allclose(inorm, (content - content.mean((2, 3), keepdim=True)) / (content.var((2, 3), unbiased=False, keepdim=True) + 1e-5).sqrt(), atol=1e-5))

# optimise the pixels of an image (Gatys-style, with the tiny net as "feature extractor")
feat = nn.Sequential(*list(net.children())[:5]).eval()
for p in feat.parameters():
    p.requires_grad_(False)
img = content.clone().requires_grad_(True)
opt = torch.optim.Adam([img], lr=0.05)
target_gram = gram(feat(style))
target_feat = feat(content)
for step in range(12):
    opt.zero_grad()
    f = feat(img)
    loss = F.mse_loss(f, target_feat) + 10 * F.mse_loss(gram(f), target_gram) + 0.01 * tv_loss(img)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}")
print(img.grad.shape, img.requires_grad, feat[0].conv.weight.grad)
