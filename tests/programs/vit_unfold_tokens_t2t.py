# Token-to-token / MobileViT style patch handling: Tensor.unfold twice to cut patches, overlapping
# soft split with nn.Unfold then nn.Fold back, MobileViT unfolding "b c (h ph) (w pw) -> b (ph pw) (h w) c"
# by hand, pixel_shuffle/pixel_unshuffle and as_strided views; strides and grads of the views.
import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W, P = 2, 3, 6, 6, 2
img = (torch.arange(B * C * H * W, dtype=torch.float32) / 10).view(B, C, H, W).requires_grad_()

# Tensor.unfold: (B, C, nH, nW, P, P)
p = img.unfold(2, P, P).unfold(3, P, P)
print(p.shape, p.stride(), p.is_contiguous(), p.grad_fn.name())
tokens = p.permute(0, 2, 3, 1, 4, 5).reshape(B, -1, C * P * P)
print(tokens.shape, tokens[0, 1, :6].detach())

# overlapping unfold (kernel 3, stride 2, pad 1) like T2T soft split
soft = nn.Unfold(kernel_size=3, stride=2, padding=1)(img)
print(soft.shape, soft.transpose(1, 2).shape)
back = nn.Fold(output_size=(H, W), kernel_size=3, stride=2, padding=1)(soft)
print(back.shape, back[0, 0, :2].detach())

# MobileViT unfolding
ph = pw = 2
x = img.detach()
nh, nw = H // ph, W // pw
u = x.reshape(B * C * nh, ph, nw, pw).transpose(1, 2)
u = u.reshape(B, C, nh * nw, ph * pw).transpose(1, 3).reshape(B * ph * pw, nh * nw, -1)
print(u.shape, u[1, 0])
f = u.contiguous().view(B, ph * pw, nh * nw, -1).transpose(1, 3)
f = f.reshape(B * C * nh, nw, ph, pw).transpose(1, 2).reshape(B, C, nh * ph, nw * pw)
print(torch.equal(f, x))

ps = F.pixel_unshuffle(x, 2)
print(ps.shape, torch.equal(F.pixel_shuffle(ps, 2), x), ps[0, :4, 0, 0])
print(nn.PixelShuffle(3), nn.PixelUnshuffle(2))

s = torch.as_strided(x[0, 0], size=(3, 3, 2, 2), stride=(12, 2, 6, 1))
print(s.shape, torch.equal(s, x[0, 0].unfold(0, 2, 2).unfold(1, 2, 2)))

loss = (tokens ** 2).sum() + soft.sum()
loss.backward()
print(img.grad[0, 0])
w = torch.arange(12.0).view(1, 12).requires_grad_()
w.unfold(1, 4, 3).sum().backward()
print(w.grad)
try:
    x.unfold(2, 7, 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    x.view(B, C, -1).transpose(1, 2).view(B, -1)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pixel_shuffle(x, 2)
except Exception as e:
    print(type(e).__name__, e)
