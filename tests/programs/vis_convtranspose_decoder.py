# Decoder / GAN-generator arithmetic with ConvTranspose2d: output-size formula, output_padding,
# the output_size= argument to pick between ambiguous sizes, groups and dilation, the checkerboard
# pattern of stride-2 kernel-3 deconvs vs resize-conv, equivalence of conv_transpose2d with the
# gradient of conv2d, channels_last, and the errors people hit.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 2 * 3 * 3, dtype=torch.float32).view(1, 2, 3, 3) / 10


def deconv_size(n, k, s=1, p=0, op=0, d=1):
    return (n - 1) * s - 2 * p + d * (k - 1) + op + 1


for k, s, p, op, d in [(2, 2, 0, 0, 1), (3, 2, 1, 1, 1), (4, 2, 1, 0, 1), (3, 1, 1, 0, 2), (5, 3, 2, 2, 1)]:
    m = nn.ConvTranspose2d(2, 1, k, stride=s, padding=p, output_padding=op, dilation=d, bias=False)
    with torch.no_grad():
        m.weight.fill_(1.0)
    y = m(x)
    print(k, s, p, op, d, tuple(y.shape), deconv_size(3, k, s, p, op, d), f"{y.sum().item():.2f}")

# checkerboard: ones kernel, stride 2, k=3 -> uneven overlap counts
ones = torch.ones(1, 1, 4, 4)
ct = F.conv_transpose2d(ones, torch.ones(1, 1, 3, 3), stride=2, padding=1, output_padding=1)
print(ct[0, 0])
print(F.conv2d(F.interpolate(ones, scale_factor=2, mode="nearest"), torch.ones(1, 1, 3, 3), padding=1)[0, 0])

# output_size argument
up = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
with torch.no_grad():
    up.weight.copy_(torch.linspace(-1, 1, up.weight.numel()).view_as(up.weight))
    up.bias.copy_(torch.tensor([0.1, 0.2, 0.3]))
print(up(x).shape, up(x, output_size=[6, 6]).shape, up(x, output_size=(1, 3, 6, 5)).shape)
print(up(x, output_size=[6, 6])[0, :, -1, -1])
try:
    up(x, output_size=[8, 8])
except ValueError as e:
    print(type(e).__name__, e)

# conv_transpose2d is the input-gradient of conv2d
w = torch.linspace(-1, 1, 3 * 2 * 3 * 3).view(3, 2, 3, 3)
inp = torch.zeros(1, 2, 6, 6, requires_grad=True)
out = F.conv2d(inp, w, stride=2, padding=1)
g = torch.arange(out.numel(), dtype=torch.float32).view_as(out)
out.backward(g)
print(out.shape, torch.allclose(inp.grad, F.conv_transpose2d(g, w, stride=2, padding=1, output_padding=1), atol=1e-5))

# grouped transposed conv: weight is (in, out/groups, k, k)
gct = nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2)
print(gct.weight.shape, gct.bias.shape, gct)
with torch.no_grad():
    gct.weight.copy_(torch.arange(gct.weight.numel(), dtype=torch.float32).view_as(gct.weight) / 24)
    gct.bias.zero_()
xg = torch.arange(2 * 4 * 2 * 2, dtype=torch.float32).view(2, 4, 2, 2)
yg = gct(xg)
print(yg.shape, yg[1, :, 0, 0], yg[0, 3])
print(gct(xg.contiguous(memory_format=torch.channels_last)).is_contiguous(memory_format=torch.channels_last))
print(F.conv_transpose1d(torch.ones(1, 1, 4), torch.tensor([[[1., 2., 3.]]]), stride=2))
print(F.conv_transpose2d(x[0], torch.ones(2, 1, 1, 1)).shape)

# DCGAN-style generator shape walk
gen = nn.Sequential(
    nn.ConvTranspose2d(8, 6, 4, 1, 0, bias=False), nn.BatchNorm2d(6), nn.ReLU(True),
    nn.ConvTranspose2d(6, 4, 4, 2, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU(True),
    nn.ConvTranspose2d(4, 1, 4, 2, 1, bias=False), nn.Tanh())
z = torch.cos(torch.arange(2 * 8, dtype=torch.float32)).view(2, 8, 1, 1)
h = z
for m in gen:
    h = m(h)
    if isinstance(m, nn.ConvTranspose2d):
        print(type(m).__name__, tuple(h.shape))
print(sum(p.numel() for p in gen.parameters()), h.grad_fn.name())

for bad in [lambda: nn.ConvTranspose2d(2, 2, 3, stride=2, output_padding=2),
            lambda: nn.ConvTranspose2d(2, 2, 3, stride=2, output_padding=2)(x),
            lambda: nn.ConvTranspose2d(3, 2, 3)(x),
            lambda: nn.ConvTranspose2d(2, 2, 3, padding="same"),
            lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"),
            lambda: nn.ConvTranspose2d(3, 2, 3, groups=2),
            lambda: F.conv_transpose2d(x, torch.ones(2, 1, 5, 5), padding=3)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
