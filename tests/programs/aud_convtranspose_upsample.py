# Vocoder-style upsampling of a low-rate conditioning signal with nn.ConvTranspose1d (stride, padding,
# output_padding, groups, dilation, output_size=), checking output lengths and grads.
import torch
import torch.nn as nn
import torch.nn.functional as F

def fill(m, scale=0.2):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(scale * torch.sin(torch.arange(p.numel(), dtype=torch.float32) + 0.5).reshape(p.shape))
    return m

cond = torch.cos(torch.arange(2 * 3 * 10, dtype=torch.float32).reshape(2, 3, 10) * 0.4)

for kw in [dict(kernel_size=4, stride=2, padding=1), dict(kernel_size=16, stride=8, padding=4),
           dict(kernel_size=3, stride=2, padding=1, output_padding=1), dict(kernel_size=3, stride=3, dilation=2),
           dict(kernel_size=4, stride=2, groups=3), dict(kernel_size=5, stride=1, padding=2, bias=False)]:
    up = fill(nn.ConvTranspose1d(3, 3, **kw))
    out = up(cond)
    print(up)
    print("  ", out.shape, f"{out.sum().item():.4f}", f"{out.pow(2).mean().item():.4f}")

up = fill(nn.ConvTranspose1d(3, 2, 4, stride=2, padding=1))
for size in [20, 21]:
    print(size, up(cond, output_size=[size]).shape, up(cond, output_size=(2, 2, size)).shape)
try:
    up(cond, output_size=[25])
except ValueError as e:
    print(type(e).__name__, e)

# MelGAN-style upsampler stack
stack = nn.Sequential(
    nn.LeakyReLU(0.2), fill(nn.ConvTranspose1d(3, 4, 8, stride=4, padding=2)),
    nn.LeakyReLU(0.2), fill(nn.ConvTranspose1d(4, 2, 4, stride=2, padding=1)),
    nn.Tanh(),
)
wav = stack(cond)
print(wav.shape, wav[0, 0, :8].round(decimals=4))
wav.abs().mean().backward()
print(stack[1].weight.grad.shape, f"{stack[1].weight.grad.abs().sum().item():.4f}", f"{stack[3].bias.grad.sum().item():.4f}")

# functional form, unbatched input
w = torch.linspace(-0.5, 0.5, 3 * 2 * 4).reshape(3, 2, 4)
print(F.conv_transpose1d(cond[0], w, stride=2).shape)
print(F.conv_transpose1d(cond, w, stride=2, padding=1, output_padding=1).round(decimals=3)[0, :, :6])
print(F.conv_transpose1d(cond, w.repeat(1, 1, 1), groups=1, dilation=2).shape)

# transposed conv is the adjoint of conv: <conv(x), y> == <x, conv_t(y)>
x = torch.sin(torch.arange(1 * 2 * 22, dtype=torch.float32).reshape(1, 2, 22))
y = torch.cos(torch.arange(1 * 3 * 10, dtype=torch.float32).reshape(1, 3, 10))
lhs = (F.conv1d(x, w, stride=2) * y).sum()
rhs = (x[..., :F.conv_transpose1d(y, w, stride=2).shape[-1]] * F.conv_transpose1d(y, w, stride=2)).sum()
print(f"{lhs.item():.4f}", f"{rhs.item():.4f}")

for bad in [lambda: nn.ConvTranspose1d(3, 3, 3, stride=2, output_padding=2),
            lambda: nn.ConvTranspose1d(3, 3, 3, padding="same"),
            lambda: nn.ConvTranspose1d(3, 3, 3, padding_mode="reflect")]:
    try:
        bad()(cond)
    except (ValueError, RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
