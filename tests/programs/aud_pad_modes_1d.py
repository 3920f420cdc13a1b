# Padding audio before convolution/framing: F.pad reflect/replicate/circular/constant on (C, L) and
# (N, C, L), negative padding to crop, the nn.*Pad1d modules and their reprs, grads and error messages.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1, 7, dtype=torch.float32).view(1, 1, 6)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode, F.pad(x, (3, 2), mode=mode))
print(F.pad(x, (2, 1), value=-1.5))
print(F.pad(x, (-2, 1)), F.pad(x, (1, -3), mode="constant"))
print(F.pad(x, (-1, -1), mode="replicate"), F.pad(x, (0, 0)))
print(F.pad(x[0], (2, 2), mode="reflect"), F.pad(x[0], (1, 3), mode="circular"))
print(F.pad(x, (1, 1, 1, 0)))
print(F.pad(x.long(), (1, 1), mode="reflect"))

mods = [nn.ReflectionPad1d(2), nn.ReflectionPad1d((1, 3)), nn.ReplicationPad1d(3), nn.ConstantPad1d(2, 0.5),
        nn.ConstantPad1d((0, 2), -1.0), nn.ZeroPad1d((3, 0)), nn.CircularPad1d(2), nn.CircularPad1d((0, 4))]
for m in mods:
    print(m, m(x).shape, m(x)[0, 0].tolist(), m.padding)

# grads accumulate at the reflected / replicated / wrapped positions
for mode in ["reflect", "replicate", "circular"]:
    xg = x.clone().requires_grad_(True)
    y = F.pad(xg, (3, 3), mode=mode)
    (y * torch.arange(12, dtype=torch.float32)).sum().backward()
    print(mode, y.grad_fn.name(), xg.grad)
xg = x.clone().requires_grad_(True)
F.pad(xg, (-2, 2)).sum().backward()
print(xg.grad)

# batch of signals with channels
b = torch.sin(torch.arange(2 * 2 * 5, dtype=torch.float32).view(2, 2, 5))
print(nn.ReflectionPad1d(4)(b).shape, nn.ReplicationPad1d((0, 7))(b)[1, 1].round(decimals=3))

for bad in [lambda: F.pad(x, (6, 0), mode="reflect"), lambda: F.pad(x, (7, 0), mode="circular"),
            lambda: F.pad(x, (1,)), lambda: F.pad(x, (1, 1), mode="wrap"),
            lambda: F.pad(x, (1, 1), mode="reflect", value=2.0), lambda: nn.ReflectionPad1d(3)(torch.zeros(3)),
            lambda: F.pad(x, (-4, -3)), lambda: F.pad(x, (1, 1, 1, 1, 1, 1), mode="replicate")]:
    try:
        print(bad().shape)
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
