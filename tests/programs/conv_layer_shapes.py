# Conv2d output-size arithmetic: stride, padding, dilation, groups, padding="same",
# bias=False, and the shapes of weight.grad — the "why is my conv output this size" question;
# then explicit padding: F.pad's modes (constant/reflect/replicate/circular, negative crops), the
# padding modules, and gradients folded back onto the border.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fill(module, scale=0.1):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view(p.shape) * scale)
    return module


x2 = torch.cos(torch.arange(2 * 3 * 9 * 8, dtype=torch.float32) * 0.11).view(2, 3, 9, 8)
for kwargs in [dict(kernel_size=3), dict(kernel_size=(3, 2)), dict(kernel_size=3, stride=(2, 1)),
               dict(kernel_size=3, padding=(1, 2)), dict(kernel_size=3, dilation=(2, 1)),
               dict(kernel_size=1, groups=3), dict(kernel_size=5, stride=2, padding=2),
               dict(kernel_size=3, padding="same"), dict(kernel_size=(1, 3), padding="valid"),
               dict(kernel_size=2, stride=3, padding=1, dilation=2, bias=False)]:
    conv = fill(nn.Conv2d(3, 6, **kwargs))
    out = conv(x2)
    out.sum().backward()
    print(conv, tuple(out.shape), tuple(conv.weight.grad.shape))

conv = fill(nn.Conv2d(3, 6, 3, stride=2, padding=1, groups=3))
out = conv(x2)
loss = (out ** 2).mean()
loss.backward()
print(f"{loss.item():.5f}", conv.weight.shape, conv.weight.grad.shape, conv.bias.grad.shape)
print(conv.weight.grad[0, 0], conv.bias.grad)
print(out[0, 0, :2])

# depthwise-separable = depthwise (groups=in) + pointwise 1x1
depthwise = fill(nn.Conv2d(3, 3, 3, padding=1, groups=3, bias=False))
pointwise = fill(nn.Conv2d(3, 5, 1))
y = pointwise(depthwise(x2))
print(y.shape, sum(p.numel() for p in depthwise.parameters()) + sum(p.numel() for p in pointwise.parameters()))

# the functional form with an explicit kernel: an edge detector
img = torch.tensor([[0., 0., 1., 1., 1.],
                    [0., 0., 1., 1., 1.],
                    [0., 0., 1., 1., 1.],
                    [0., 0., 1., 1., 1.]]).view(1, 1, 4, 5)
sobel_x = torch.tensor([[-1., 0., 1.], [-2., 0., 2.], [-1., 0., 1.]]).view(1, 1, 3, 3)
print(F.conv2d(img, sobel_x))
print(F.conv2d(img, sobel_x, padding=1, stride=2))
print(F.conv2d(torch.arange(6.).view(1, 1, 1, 6), torch.tensor([[[[1., -1.]]]])))

# gradient of the input through a conv
inp = img.clone().requires_grad_()
F.conv2d(inp, sobel_x).sum().backward()
print(inp.grad)

for bad in [lambda: nn.Conv2d(3, 6, 3, groups=2), lambda: nn.Conv2d(4, 6, 3, groups=4),
            lambda: nn.Conv2d(3, 6, 3, padding="same", stride=2),
            lambda: nn.Conv2d(3, 6, 11)(x2)]:
    try:
        bad()
        print("no error")
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)

# explicit padding before a conv: F.pad's (left, right, top, bottom) order and its modes
x = torch.arange(1.0, 7.0).view(1, 2, 3)
print(F.pad(x, (1, 2)), F.pad(x, (1, 1, 1, 0)), F.pad(x, (0, 0, 0, 0, 1, 0)).shape)
print(F.pad(x, (2, 1), value=-1.0), F.pad(x, (1, 1), mode="constant", value=9))
print(F.pad(x, (2, 1), mode="reflect"), F.pad(x, (2, 1), mode="replicate"), F.pad(x, (2, 1), mode="circular"))
print(F.pad(x, (-1, 0)), F.pad(x, (1, -1, 0, -1)), F.pad(torch.arange(4), (1, 1)))

img = torch.arange(1.0, 10.0).view(1, 1, 3, 3)
print(F.pad(img, (1, 1, 1, 1), mode="reflect"))
print(F.pad(img, (2, 0, 0, 1), mode="replicate"))
print(F.pad(img, (1, 1, 2, 0), mode="circular"))
print(F.pad(img, [1, 0, 0, 1]), F.pad(img.int(), (1, 0)).dtype)

for module in [nn.ZeroPad2d(1), nn.ZeroPad2d((1, 0, 2, 0)), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((0, 1, 1, 0), -1.0),
               nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 1, 0, 2)), nn.ReplicationPad1d((0, 3)),
               nn.ReplicationPad2d(1), nn.CircularPad1d(1), nn.CircularPad2d((1, 0, 0, 1)), nn.ZeroPad1d((2, 0))]:
    inp = x if "1d" in type(module).__name__ else img
    out = module(inp)
    print(module, tuple(out.shape), out.flatten()[:8].tolist())
print(nn.ReflectionPad2d(1)(img.squeeze(0)).shape, nn.ConstantPad3d(1, 0.0)(torch.ones(1, 1, 1, 1, 1)).shape)

# gradients: each output position sends its gradient back to the input element it copied
w = torch.arange(1.0, 5.0).view(1, 1, 4).requires_grad_()
for mode in ["constant", "reflect", "replicate", "circular"]:
    w.grad = None
    out = F.pad(w, (3, 2), mode=mode)
    (out * torch.arange(1.0, 10.0)).sum().backward()
    print(mode, out.flatten().tolist(), w.grad, out.grad_fn.name())
g = img.clone().requires_grad_()
F.pad(g, (1, 1, 1, 1), mode="reflect").sum().backward()
print(g.grad)
g.grad = None
F.pad(g, (0, 2, 2, 0), mode="replicate").sum().backward()
print(g.grad)
g.grad = None
F.pad(g, (-1, 1, 0, 0)).sum().backward()
print(g.grad)

# "same" padding by hand for an even kernel before a conv
kernel = torch.ones(1, 1, 2, 2)
same = F.conv2d(F.pad(img, (0, 1, 0, 1)), kernel)
print(same.shape, same)

for bad in [lambda: F.pad(x, (3, 0), mode="reflect"), lambda: F.pad(x, (1, 2, 3)),
            lambda: F.pad(x, (1, 1), mode="wrap"), lambda: nn.ReflectionPad2d(1)(x.view(6))]:
    try:
        bad()
        print("no error")
    except (RuntimeError, ValueError, NotImplementedError, AssertionError) as e:
        print(type(e).__name__, e)
