# ViT front-end as written in from-scratch tutorials: patch embedding with a stride=kernel Conv2d
# vs F.unfold + Linear (same weights, same result), flatten(2).transpose(1, 2) token layout, a
# learnable cls token and position embedding (interpolated bicubic to a new grid size for
# fine-tuning at higher resolution), and F.fold reassembling patches into an image.
import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W, P, D = 2, 3, 8, 8, 4, 6
img = torch.sin(torch.arange(B * C * H * W, dtype=torch.float32) * 0.05).view(B, C, H, W)

proj = nn.Conv2d(C, D, kernel_size=P, stride=P)
with torch.no_grad():
    proj.weight.copy_(torch.linspace(-0.5, 0.5, proj.weight.numel()).view_as(proj.weight))
    proj.bias.copy_(torch.linspace(0, 0.1, D))
tokens = proj(img).flatten(2).transpose(1, 2)
print(proj(img).shape, tokens.shape, tokens.is_contiguous())

patches = F.unfold(img, kernel_size=P, stride=P)
print(patches.shape)
lin = nn.Linear(C * P * P, D)
with torch.no_grad():
    lin.weight.copy_(proj.weight.reshape(D, -1))
    lin.bias.copy_(proj.bias)
tokens2 = lin(patches.transpose(1, 2))
print(torch.allclose(tokens, tokens2, atol=1e-5), f"{(tokens - tokens2).abs().max().item() < 1e-5}")

# einops-free rearrange: b c (h p1) (w p2) -> b (h w) (p1 p2 c)
r = img.reshape(B, C, H // P, P, W // P, P).permute(0, 2, 4, 3, 5, 1).reshape(B, (H // P) * (W // P), P * P * C)
print(r.shape, r[0, 1, :4])

cls = nn.Parameter(torch.zeros(1, 1, D))
pos = nn.Parameter(torch.linspace(-1, 1, (1 + 4) * D).view(1, 5, D))
x = torch.cat([cls.expand(B, -1, -1), tokens], dim=1) + pos
print(x.shape, x.grad_fn.name(), x[0, 0])

# resize position embedding to a 3x3 grid (higher-res fine-tuning)
grid = pos[:, 1:].reshape(1, 2, 2, D).permute(0, 3, 1, 2)
new = F.interpolate(grid, size=(3, 3), mode="bicubic", align_corners=False)
new_pos = torch.cat([pos[:, :1], new.permute(0, 2, 3, 1).reshape(1, 9, D)], dim=1)
print(new.shape, new_pos.shape, new_pos[0, 5].detach())

# gradients flow to cls/pos and through unfold
x.sum().backward()
print(cls.grad.shape, pos.grad[0, :, 0], proj.weight.grad.shape)
img_g = img.clone().requires_grad_(True)
F.unfold(img_g, kernel_size=3, stride=2, padding=1).sum().backward()
print(img_g.grad[0, 0])

# fold: reassemble non-overlapping patches exactly, overlapping ones with counts
back = F.fold(patches, output_size=(H, W), kernel_size=P, stride=P)
print(torch.equal(back, img))
ov = F.unfold(img, kernel_size=4, stride=2)
counts = F.fold(torch.ones_like(ov), output_size=(H, W), kernel_size=4, stride=2)
print(ov.shape, counts[0, 0])
print(torch.allclose(F.fold(ov, (H, W), 4, stride=2) / counts, img, atol=1e-6))
print(nn.Unfold(kernel_size=(2, 4), dilation=(2, 1), stride=(3, 2))(img).shape)

for bad in [lambda: F.unfold(img[0, 0], 2),
            lambda: F.fold(patches, output_size=(H, W), kernel_size=3),
            lambda: F.fold(patches[:, :-1], output_size=(H, W), kernel_size=P, stride=P),
            lambda: proj(torch.zeros(2, 4, 8, 8))]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
