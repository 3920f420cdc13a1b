# Pooling beyond the 2-D basics: 1-D pooling over sequences, unbatched (C, H, W) inputs, ties in
# max pooling (which index wins, where the gradient goes), MaxUnpool1d/2d round trips,
# LPPool, and the errors people get with integer images or too-small inputs.
import torch
import torch.nn as nn
import torch.nn.functional as F

seq = torch.tensor([[[1., 5., 2., 2., 8., 3., 3., 0., 4.]]])
print(F.max_pool1d(seq, 2))
print(F.max_pool1d(seq, 3, stride=2, padding=1))
print(F.max_pool1d(seq, 2, ceil_mode=True))
out, idx = F.max_pool1d(seq, 3, stride=3, return_indices=True)
print(out, idx, idx.dtype)
print(F.avg_pool1d(seq, 3))
print(F.avg_pool1d(seq, 3, stride=2, padding=1, count_include_pad=False))
print(F.avg_pool1d(seq, 4, ceil_mode=True))
print(nn.MaxPool1d(3, stride=1), nn.AvgPool1d(2, padding=1))

# unpooling 1-D
up = nn.MaxUnpool1d(3, stride=3)
print(up, up(out, idx))
print(F.max_unpool1d(out, idx, 3, output_size=[10]))

# ties: all values equal inside a window
flat = torch.ones(1, 1, 4, 4)
v, i = F.max_pool2d(flat, 2, return_indices=True)
print(v, i)
w = torch.tensor([[[[1., 1., 2., 2.], [1., 1., 2., 2.], [0., 3., 3., 0.], [0., 3., 3., 0.]]]], requires_grad=True)
F.max_pool2d(w, 2).sum().backward()
print(w.grad)
w.grad = None
w.amax(dim=(-2, -1)).sum().backward()
print(w.grad)

# unbatched input (C, H, W)
chw = torch.arange(2 * 4 * 4.).view(2, 4, 4)
print(F.max_pool2d(chw, 2))
print(nn.AvgPool2d(2)(chw).shape, nn.AdaptiveAvgPool2d(1)(chw).shape)
v2, i2 = F.max_pool2d(chw, 2, return_indices=True)
print(i2)
print(F.max_unpool2d(v2, i2, 2))

# MaxUnpool2d with stride != kernel and output_size
img = (torch.arange(25.) * 7 % 25).view(1, 1, 5, 5)
pool = nn.MaxPool2d(3, stride=2, return_indices=True)
p, ind = pool(img)
unpool = nn.MaxUnpool2d(3, stride=2)
print(p, ind)
print(unpool(p, ind))
print(unpool(p, ind, output_size=img.size()))
print(unpool)

# gradient of avg_pool1d with padding excluded
s = seq.clone().requires_grad_()
F.avg_pool1d(s, 3, stride=2, padding=1, count_include_pad=False).sum().backward()
print(s.grad)

for fn in [lambda: F.max_pool2d(torch.arange(16).view(1, 1, 4, 4), 2),
           lambda: F.avg_pool2d(torch.arange(16).view(1, 1, 4, 4), 2),
           lambda: F.max_pool1d(torch.ones(1, 1, 2), 3),
           lambda: F.avg_pool1d(torch.ones(1, 1, 4), 2, padding=2),
           lambda: F.max_unpool2d(v2, i2, 2, output_size=[9, 9])]:
    try:
        r = fn()
        print(r.dtype, r.shape)
    except Exception as e:
        print(type(e).__name__, e)

# max pooling a masked feature map (-inf outside the mask) with padding: which indices?
m = torch.arange(1., 10.).view(1, 1, 3, 3)
mask = torch.tensor([[[[True, False, False], [False, False, False], [False, False, True]]]])
xm = m.masked_fill(~mask, float("-inf")).requires_grad_()
om, im = F.max_pool2d(xm, 2, stride=1, padding=1, return_indices=True)
print(om, im)
om.masked_fill(om.isinf(), 0).sum().backward()
print(xm.grad)
print(F.max_unpool2d(om.detach(), im, 2, stride=1, padding=1, output_size=(3, 3)))
print(F.max_pool2d(torch.full((1, 1, 3, 3), float("-inf")), 2, stride=1, padding=1, return_indices=True)[1])

# LPPool: p=2 is a root-sum-of-squares, p=1 a plain sum
lp = nn.LPPool2d(2, 2)
print(lp, lp(img))
print(nn.LPPool1d(1, 3)(seq))
print(F.lp_pool2d(img, 3, 2))
