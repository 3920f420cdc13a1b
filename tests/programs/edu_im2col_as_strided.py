# Assignment: implement conv2d forward with as_strided (im2col) + einsum and maxpool with
# unfold, backward by hand (col2im via index_add/fold), compared with F.conv2d and autograd.
import torch
import torch.nn.functional as F

N, C, H, W = 2, 3, 5, 5
F_, HH, WW = 4, 3, 3
x = (torch.sin(torch.arange(N * C * H * W, dtype=torch.float64) * 0.37)).reshape(N, C, H, W)
w = (torch.cos(torch.arange(F_ * C * HH * WW, dtype=torch.float64) * 0.21) * 0.5).reshape(F_, C, HH, WW)
b = torch.linspace(-0.5, 0.5, F_, dtype=torch.float64)


def conv_forward_strided(x, w, b, stride=1, pad=1):
    xp = F.pad(x, (pad, pad, pad, pad))
    n, c, h, wd = xp.shape
    sn, sc, sh, sw = xp.stride()
    Ho = (h - HH) // stride + 1
    Wo = (wd - WW) // stride + 1
    cols = xp.as_strided((n, c, Ho, Wo, HH, WW), (sn, sc, sh * stride, sw * stride, sh, sw))
    print("cols", tuple(cols.shape), cols.stride(), cols.is_contiguous())
    out = torch.einsum("nchwij,fcij->nfhw", cols, w) + b[None, :, None, None]
    return out


out = conv_forward_strided(x, w, b)
ref = F.conv2d(x, w, b, padding=1)
print(out.shape, torch.allclose(out, ref), f"{(out - ref).abs().max().item() < 1e-12}")
out2 = conv_forward_strided(x, w, b, stride=2)
ref2 = F.conv2d(x, w, b, stride=2, padding=1)
print(out2.shape, torch.allclose(out2, ref2))

# im2col with unfold, then matmul
cols = F.unfold(x, kernel_size=(HH, WW), padding=1)
print("unfold", cols.shape)
out3 = (w.view(F_, -1) @ cols).view(N, F_, H, W) + b.view(1, -1, 1, 1)
print("unfold conv ok", torch.allclose(out3, ref))

# backward by hand
dout = torch.cos(torch.arange(out.numel(), dtype=torch.float64)).reshape(out.shape)
db = dout.sum(dim=(0, 2, 3))
dcols = torch.einsum("fk,nfl->nkl", w.view(F_, -1), dout.view(N, F_, -1))
dx = F.fold(dcols, output_size=(H, W), kernel_size=(HH, WW), padding=1)
dw = torch.einsum("nfl,nkl->fk", dout.view(N, F_, -1), cols).view_as(w)

xg = x.clone().requires_grad_()
wg = w.clone().requires_grad_()
bg = b.clone().requires_grad_()
F.conv2d(xg, wg, bg, padding=1).backward(dout)
for name, mine, auto in [("dx", dx, xg.grad), ("dw", dw, wg.grad), ("db", db, bg.grad)]:
    print(name, tuple(mine.shape), torch.allclose(mine, auto), (mine - auto).abs().max().item() < 1e-10)

# max pool 2x2 stride 2 with unfold, and its backward via scatter
p = torch.arange(16.0).reshape(1, 1, 4, 4).flip(-1)
windows = p.unfold(2, 2, 2).unfold(3, 2, 2)  # 1,1,2,2,2,2
print("windows", windows.shape, windows.stride())
flat = windows.reshape(1, 1, 2, 2, 4)
mx, arg = flat.max(dim=-1)
print(mx, torch.equal(mx, F.max_pool2d(p, 2)))
_, idx = F.max_pool2d(p, 2, return_indices=True)
print(idx)
dp = torch.zeros(16).scatter_(0, idx.flatten(), torch.ones(4)).view(4, 4)
pg = p.clone().requires_grad_()
F.max_pool2d(pg, 2).sum().backward()
print(torch.equal(dp, pg.grad[0, 0]), dp)
print(F.max_unpool2d(mx.view(1, 1, 2, 2), idx, 2))
