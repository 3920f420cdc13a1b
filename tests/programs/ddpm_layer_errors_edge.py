# Mistakes users make while wiring a diffusion UNet, and the messages PyTorch gives: GroupNorm
# channels not divisible by groups, skip-connection channel mismatch into Conv2d, interpolate
# with both size and scale_factor, wrong modes/dims; plus edge options (nearest-exact, output_size,
# padding_mode, depthwise conv, GroupNorm on 3-D/5-D input).
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", tuple(out.shape) if hasattr(out, "shape") else out)
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.cos(torch.arange(2 * 6 * 4 * 4, dtype=torch.float32) * 0.3).reshape(2, 6, 4, 4)

attempt("groupnorm_ctor", lambda: nn.GroupNorm(4, 6))
attempt("groupnorm_wrong_C", lambda: nn.GroupNorm(2, 8)(x))
attempt("groupnorm_F", lambda: F.group_norm(x, 4))
attempt("conv_in_ch", lambda: nn.Conv2d(12, 4, 3, padding=1)(x))
attempt("cat_mismatch", lambda: torch.cat([x, x[:, :, :2]], dim=1))
attempt("interp_both", lambda: F.interpolate(x, size=(8, 8), scale_factor=2))
attempt("interp_none", lambda: F.interpolate(x))
attempt("interp_mode", lambda: F.interpolate(x, scale_factor=2, mode="trilinear"))
attempt("interp_ac_nearest", lambda: F.interpolate(x, scale_factor=2, mode="nearest", align_corners=True))
attempt("interp_linear_4d", lambda: F.interpolate(x, scale_factor=2, mode="linear"))
attempt("interp_bad_mode", lambda: F.interpolate(x, scale_factor=2, mode="cubic"))
attempt("convT_output_size", lambda: nn.ConvTranspose2d(6, 3, 3, stride=2, padding=1)(x, output_size=[8, 8]))
attempt("convT_output_size_bad", lambda: nn.ConvTranspose2d(6, 3, 3, stride=2, padding=1)(x, output_size=[12, 12]))
attempt("same_stride", lambda: nn.Conv2d(6, 6, 3, stride=2, padding="same"))
attempt("pool_big_kernel", lambda: F.avg_pool2d(x, 5))

y = F.interpolate(x, scale_factor=1.5, mode="nearest-exact")
print(y.shape, y[0, 0, 0].round(decimals=4))
y = F.interpolate(x, scale_factor=1.5, mode="nearest")
print(y.shape, y[0, 0, 0].round(decimals=4))
y = F.interpolate(x, scale_factor=0.75, mode="bilinear", antialias=True)
print(y.shape, y[0, 0, 0].round(decimals=4))

for mode in ["zeros", "reflect", "replicate", "circular"]:
    conv = nn.Conv2d(6, 2, 3, padding=1, padding_mode=mode, bias=False)
    with torch.no_grad():
        conv.weight.copy_(torch.linspace(-1, 1, conv.weight.numel()).reshape(conv.weight.shape))
    out = conv(x)
    print(mode, conv, out[1, 1, 0].round(decimals=4))

dw = nn.Conv2d(6, 6, 3, padding="same", groups=6, dilation=2)
with torch.no_grad():
    dw.weight.copy_(torch.sin(torch.arange(54.0)).reshape(6, 1, 3, 3))
    dw.bias.zero_()
print(dw, dw(x)[0, 5, 1].round(decimals=4))

gn = nn.GroupNorm(3, 6, eps=1e-6, affine=False)
print(gn, list(gn.state_dict().keys()))
seq = torch.sin(torch.arange(2 * 6 * 5, dtype=torch.float32)).reshape(2, 6, 5)
print(gn(seq)[0, :, 0].round(decimals=4))
vol = torch.sin(torch.arange(1 * 6 * 2 * 2 * 2, dtype=torch.float32)).reshape(1, 6, 2, 2, 2)
print(gn(vol).shape, gn(vol).mean(dim=(2, 3, 4)).abs().max() < 1e-5)
in2 = nn.InstanceNorm2d(6, affine=True)
print(in2, in2(x).std(dim=(2, 3), unbiased=False)[0].round(decimals=3))
