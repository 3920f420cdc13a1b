# nn.Conv1d configurations from speech/audio models: dilation, groups (depthwise-separable),
# padding='same'/'valid', padding_mode, bias=False, with deterministic weights and error messages.
import torch
import torch.nn as nn
import torch.nn.functional as F

def init_(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
    return m

x = torch.sin(torch.arange(2 * 4 * 20, dtype=torch.float32).reshape(2, 4, 20) * 0.3)

configs = [
    dict(kernel_size=3, dilation=2, padding="same"),
    dict(kernel_size=4, dilation=1, padding="same"),
    dict(kernel_size=4, dilation=3, padding="same"),
    dict(kernel_size=3, padding="valid", stride=2),
    dict(kernel_size=5, padding=2, padding_mode="reflect"),
    dict(kernel_size=5, padding=2, padding_mode="circular"),
    dict(kernel_size=5, padding=3, padding_mode="replicate", dilation=2),
    dict(kernel_size=3, groups=4, padding=1),
    dict(kernel_size=3, groups=2, padding="same", bias=False, dilation=2),
]
for cfg in configs:
    conv = init_(nn.Conv1d(4, 4, **cfg))
    y = conv(x)
    print(conv)
    print("  ", tuple(y.shape), conv.weight.shape, f"{y.sum().item():.4f}", f"{y.abs().mean().item():.4f}")

# depthwise separable
dw = init_(nn.Conv1d(4, 8, 3, groups=4, padding=1))
pw = init_(nn.Conv1d(8, 6, 1))
y = pw(dw(x))
print(y.shape, y[0, :, :4].round(decimals=3))
print(sum(p.numel() for p in dw.parameters()), sum(p.numel() for p in pw.parameters()))

# functional conv1d with string padding
w = torch.linspace(-1, 1, 4 * 2 * 3).reshape(4, 2, 3)
print(F.conv1d(x, w, groups=2, padding="same", dilation=3).shape)
print(F.conv1d(x, w, groups=2, padding="valid", stride=3).shape)
out = F.conv1d(x[:1], w, groups=2, padding="same", dilation=3)
print(out.round(decimals=3)[0, :, :6])

# unbatched input
single = init_(nn.Conv1d(4, 3, 3, padding="same"))
print(single(x[0]).shape)

# grads
xg = x.clone().requires_grad_(True)
conv = init_(nn.Conv1d(4, 4, 4, padding="same", dilation=2, groups=2))
conv(xg).pow(2).mean().backward()
print(conv.weight.grad.shape, f"{conv.weight.grad.abs().sum().item():.4f}", f"{conv.bias.grad.sum().item():.4f}")
print(f"{xg.grad.abs().sum().item():.4f}", xg.grad[0, 0, :5])

for bad in [
    lambda: nn.Conv1d(4, 4, 3, padding="same", stride=2),
    lambda: nn.Conv1d(4, 6, 3, groups=4),
    lambda: nn.Conv1d(3, 4, 3)(x),
    lambda: F.conv1d(x, w, padding="same", stride=2),
    lambda: nn.Conv1d(4, 4, 30)(x),
]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
