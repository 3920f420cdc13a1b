# F.pad beyond the 2-D basics: 3-D volumes (N, C, D, H, W) in every mode, negative padding to crop,
# padding integer / bool masks, unbatched inputs, padding only some dims, the 3-D padding
# modules and their reprs, gradients through circular/replicate padding, and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

vol = torch.arange(8.).view(1, 1, 2, 2, 2)
for mode in ["constant", "reflect", "replicate", "circular"]:
    p = F.pad(vol, (1, 1, 0, 1, 1, 0), mode=mode)
    print(mode, p.shape, p[0, 0, 0], p[0, 0, -1, -1])

# negative padding crops (constant mode only)
img = torch.arange(25.).view(1, 1, 5, 5)
print(F.pad(img, (-1, -1, -2, 0)))
print(F.pad(img, (1, -2, -1, 1), value=-1.))
print(nn.ZeroPad2d((-1, 0, 0, -1))(img).shape)

# integer and bool tensors
lab = torch.tensor([[1, 2], [3, 4]])
print(F.pad(lab, (1, 1), value=255), F.pad(lab, (0, 0, 1, 0)).dtype)
mask = torch.tensor([[True, False], [False, True]])
print(F.pad(mask, (1, 0, 0, 1)), F.pad(mask, (1, 1), value=True))
print(F.pad(lab.view(1, 2, 2), (1, 1), mode="replicate"))

# unbatched image (C, H, W) and constant padding of leading dims
chw = torch.arange(12.).view(1, 3, 4)
print(F.pad(chw, (1, 2, 1, 0), mode="reflect"))
print(F.pad(img, (0, 0, 0, 0, 1, 1)).shape, F.pad(img, (0, 0, 0, 0, 0, 0, 1, 0)).shape)

# 3-D modules
for m in [nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 0, 0, 1, 0, 0)), nn.ConstantPad3d((0, 1, 0, 0, 1, 0), 7.),
          nn.ZeroPad3d(1), nn.CircularPad3d((0, 0, 1, 0, 0, 1))]:
    out = m(vol)
    print(m, out.shape, out.sum().item())

# gradients
g = torch.arange(1., 7.).view(1, 2, 3).requires_grad_()
F.pad(g, (2, 2), mode="circular").sum().backward()
print(g.grad)
g.grad = None
(F.pad(g, (1, 3), mode="replicate") * torch.arange(7.)).sum().backward()
print(g.grad)
v = vol.clone().requires_grad_()
F.pad(v, (1, 1, 1, 1, 1, 1), mode="reflect").sum().backward()
print(v.grad.flatten())
c = img.clone().requires_grad_()
F.pad(c, (-1, -1, -1, -1)).sum().backward()
print(c.grad[0, 0])

for fn in [lambda: F.pad(vol, (2, 2, 0, 0, 0, 0), mode="reflect"),
           lambda: F.pad(img, (-1, 0), mode="reflect"),
           lambda: F.pad(img, (1, 1, 1, 1, 1, 1), mode="replicate"),
           lambda: F.pad(torch.arange(4.), (1, 1), mode="circular"),
           lambda: F.pad(img, (-3, -3)),
           lambda: F.pad(img, (6, 0), mode="circular"),
           lambda: F.pad(img, (2, 0), mode="reflect")]:
    try:
        print(fn().shape)
    except Exception as e:
        print(type(e).__name__, e)
