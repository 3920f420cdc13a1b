# Conv2d / Conv1d beyond zero padding: padding_mode='reflect'/'replicate'/'circular', padding='same'
# with dilation and even kernels, grouped convs with identity-like (dirac) init, reprs with all
# options, and the errors users hit (bad groups, 'same' with stride).
import torch
import torch.nn as nn
import torch.nn.functional as F

img = torch.arange(16.).view(1, 1, 4, 4)
for mode in ["zeros", "reflect", "replicate", "circular"]:
    conv = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    nn.init.ones_(conv.weight)
    out = conv(img)
    print(conv)
    print(out[0, 0])

# 'same' with even kernel and dilation: output keeps H, W
for kwargs in [dict(kernel_size=2, padding="same"), dict(kernel_size=4, padding="same", dilation=1),
               dict(kernel_size=3, padding="same", dilation=2), dict(kernel_size=(2, 3), padding="same"),
               dict(kernel_size=3, padding="same", padding_mode="reflect")]:
    conv = nn.Conv2d(1, 2, bias=False, **kwargs)
    nn.init.constant_(conv.weight, 0.5)
    out = conv(img)
    print(conv, tuple(out.shape), out[0, 0, 0].tolist())

# Conv1d on (N, C, L) with circular padding: a periodic moving sum
sig = torch.tensor([[[1., 2., 3., 4., 5.]]])
conv1 = nn.Conv1d(1, 1, 3, padding=1, padding_mode="circular", bias=False)
nn.init.ones_(conv1.weight)
print(conv1, conv1(sig))
conv1s = nn.Conv1d(1, 1, 4, padding="same", bias=False)
nn.init.ones_(conv1s.weight)
print(conv1s(sig))

# grouped conv initialised to identity with dirac_: output == input
g = nn.Conv2d(4, 4, 3, padding=1, groups=2, bias=False)
nn.init.dirac_(g.weight, groups=2)
x = torch.linspace(-1, 1, 2 * 4 * 3 * 3).view(2, 4, 3, 3)
print(g.weight.shape, torch.allclose(g(x), x), g.weight[1, :, 1, 1])
d = nn.Conv2d(3, 3, 3, padding=2, dilation=2, bias=False)
nn.init.dirac_(d.weight)
print(torch.equal(d(x[:, :3]), x[:, :3]), d.weight.sum().item())

# gradients with reflect padding fold back onto the border
w = img.clone().requires_grad_()
conv = nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect", bias=False)
nn.init.ones_(conv.weight)
conv(w).sum().backward()
print(w.grad[0, 0], conv.weight.grad[0, 0])
w.grad = None
conv_c = nn.Conv2d(1, 1, 3, padding=1, padding_mode="circular", bias=False)
nn.init.ones_(conv_c.weight)
conv_c(w).sum().backward()
print(w.grad[0, 0])

# repr with everything, and the errors
print(nn.Conv2d(4, 8, (3, 5), stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=4, bias=False, padding_mode="replicate"))
print(nn.Conv1d(2, 4, 3, stride=2, padding=1, groups=2))
for make in [lambda: nn.Conv2d(3, 4, 3, groups=2),
             lambda: nn.Conv2d(4, 6, 3, groups=4),
             lambda: nn.Conv2d(1, 1, 3, stride=2, padding="same"),
             lambda: nn.Conv2d(1, 1, 3, padding="full")]:
    try:
        make()
    except Exception as e:
        print(type(e).__name__, str(e).split("{")[0])
try:
    nn.Conv2d(2, 1, 3)(img)
except Exception as e:
    print(type(e).__name__, e)
