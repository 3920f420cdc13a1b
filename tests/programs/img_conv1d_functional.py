# Conv1d and the functional F.conv1d/F.conv2d API with stride, dilation, groups, string padding,
# plus the shape arithmetic users check by hand and the input.grad "receptive field" of a conv.
import torch
import torch.nn as nn
import torch.nn.functional as F

# 1-D signal, moving-difference kernel
sig = torch.arange(10.).view(1, 1, 10) ** 2
k = torch.tensor([[[-1., 0., 1.]]])
print(F.conv1d(sig, k))
print(F.conv1d(sig, k, stride=2, padding=1))
print(F.conv1d(sig, k, dilation=3))
print(F.conv1d(sig, k, padding="same", dilation=2))
print(F.conv1d(sig, k, padding="valid").shape)
print(F.conv1d(sig, k, bias=torch.tensor([100.])))

# depthwise conv1d: groups == in_channels
x = torch.arange(24.).view(2, 3, 4)
dw = nn.Conv1d(3, 6, 2, groups=3, bias=False)
with torch.no_grad():
    dw.weight.copy_(torch.arange(12.).view(6, 1, 2) / 10)
print(dw, dw.weight.shape)
print(dw(x))

# output size formula vs actual
def out_len(L, k, s=1, p=0, d=1):
    return (L + 2 * p - d * (k - 1) - 1) // s + 1
for (k_, s, p, d) in [(3, 1, 0, 1), (3, 2, 1, 1), (5, 3, 2, 2), (2, 2, 0, 1)]:
    got = F.conv1d(torch.ones(1, 1, 11), torch.ones(1, 1, k_), stride=s, padding=p, dilation=d)
    print(k_, s, p, d, out_len(11, k_, s, p, d), got.shape[-1], got.flatten().tolist())

# receptive field: gradient of one output pixel w.r.t. the input
img = torch.zeros(1, 1, 9, 9, requires_grad=True)
net = nn.Sequential(nn.Conv2d(1, 1, 3, bias=False), nn.Conv2d(1, 1, 3, dilation=2, bias=False))
for m in net:
    nn.init.ones_(m.weight)
out = net(img)
print(out.shape)
out[0, 0, 1, 1].backward()
print(img.grad[0, 0])
print((img.grad[0, 0] != 0).sum().item())

# grads of a strided conv1d: weight and bias grad
xg = torch.arange(8.).view(1, 1, 8).requires_grad_()
wg = torch.tensor([[[1., -2., 1.]]], requires_grad=True)
bg = torch.tensor([0.5], requires_grad=True)
o = F.conv1d(xg, wg, bg, stride=2, padding=1)
print(o)
(o * torch.arange(1., 5.)).sum().backward()
print(xg.grad, wg.grad, bg.grad)

# errors
for fn in [lambda: F.conv1d(torch.ones(1, 2, 5), torch.ones(1, 3, 3)),
           lambda: F.conv1d(torch.ones(1, 1, 2), torch.ones(1, 1, 3)),
           lambda: F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 3), padding="full"),
           lambda: F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 3), stride=2, padding="same"),
           lambda: F.conv2d(torch.ones(1, 4, 3, 3), torch.ones(2, 2, 2, 2), groups=3),
           lambda: F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2)),
           lambda: F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2), stride=0),
           lambda: F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2), padding=-1)]:
    try:
        print(fn().shape)
    except Exception as e:
        print(type(e).__name__, e)

# "UserWarning: Using padding='same' with even kernel lengths and odd dilation ..."
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    o = F.conv1d(sig, torch.ones(1, 1, 4), padding="same")
print(o, [str(w.message).split(" (Triggered")[0] for w in caught])
