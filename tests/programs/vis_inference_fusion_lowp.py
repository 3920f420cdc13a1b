# Preparing a CNN for inference the way deployment scripts do: conv-BN fusion with
# torch.nn.utils.fusion.fuse_conv_bn_eval, SyncBatchNorm.convert_sync_batchnorm round trip of
# module types, Lazy conv/BN layers materialised by a dry run, and running the net in
# float16 on CPU (dtypes of outputs, pooling and interpolate in low precision).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights

conv = nn.Conv2d(3, 4, 3, padding=1)
bn = nn.BatchNorm2d(4)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-0.5, 0.5, conv.weight.numel()).view_as(conv.weight))
    conv.bias.copy_(torch.tensor([0.1, -0.2, 0.3, 0.0]))
    bn.weight.copy_(torch.tensor([1.0, 0.5, 2.0, 1.5]))
    bn.bias.copy_(torch.tensor([0.0, 0.1, -0.1, 0.2]))
    bn.running_mean.copy_(torch.tensor([0.2, -0.1, 0.0, 0.3]))
    bn.running_var.copy_(torch.tensor([1.5, 0.5, 2.0, 1.0]))
conv.eval(); bn.eval()
fused = fuse_conv_bn_eval(conv, bn)
x = torch.cos(torch.arange(2 * 3 * 5 * 5, dtype=torch.float32) * 0.3).view(2, 3, 5, 5)
print(type(fused).__name__, fused.bias, torch.allclose(fused(x), bn(conv(x)), atol=1e-5))
w, b = fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
print(type(w).__name__, w.requires_grad, b.shape)

model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Sequential(nn.BatchNorm2d(4)))
sync = nn.SyncBatchNorm.convert_sync_batchnorm(model)
print([type(m).__name__ for m in sync.modules()])
print(sync[1])

lazy = nn.Sequential(nn.LazyConv2d(6, 3, padding=1), nn.LazyBatchNorm2d(), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.LazyLinear(2))
print(lazy[0].weight.__class__.__name__, lazy[0])
lazy(x)
print(lazy[0], lazy[0].weight.shape, lazy[1], lazy[5], [type(m).__name__ for m in lazy])
print(sum(p.numel() for p in lazy.parameters()))

for dt in (torch.float16,):
    m = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2)).eval()
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p) * 0.5)
    ref = m(x)
    m = m.to(dt)
    y = m(x.to(dt))
    print(dt, y.dtype, y.shape, (y.float() - ref).abs().max().item() < 0.1)
    xl = x.to(dt)
    for name, out in [("avg", F.avg_pool2d(xl, 2)), ("adapt", F.adaptive_avg_pool2d(xl, 2)),
                      ("up", F.interpolate(xl, scale_factor=2, mode="nearest")),
                      ("bilinear", F.interpolate(xl, size=(7, 7), mode="bilinear", align_corners=False)),
                      ("pad", F.pad(xl, (1, 1, 1, 1), mode="reflect")), ("shuffle", F.pixel_shuffle(xl[:, :1].expand(2, 4, 5, 5), 2))]:
        print(" ", name, out.dtype, tuple(out.shape), f"{out.float().sum().item():.1f}")
