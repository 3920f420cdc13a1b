# Swin Transformer window attention as in the reference repo: window_partition / window_reverse with
# view/permute/contiguous, cyclic shift via torch.roll, the shifted-window attention mask built from
# img_mask slices, and the relative position bias table indexed with meshgrid/flatten.
import torch
import torch.nn as nn
import torch.nn.functional as F


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, ws, heads):
        super().__init__()
        self.ws, self.heads = ws, heads
        self.scale = (dim // heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(torch.zeros((2 * ws - 1) * (2 * ws - 1), heads))
        coords = torch.stack(torch.meshgrid([torch.arange(ws), torch.arange(ws)], indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)
        rel = coords_flatten[:, :, None] - coords_flatten[:, None, :]
        rel = rel.permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", rel.sum(-1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1)
        attn = attn + bias.permute(2, 0, 1).contiguous().unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.heads, N, N)
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))


H = W = 4
ws, shift, C = 2, 1, 4
img_mask = torch.zeros((1, H, W, 1))
cnt = 0
for h in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
    for w in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
        img_mask[:, h, w, :] = cnt
        cnt += 1
mask_windows = window_partition(img_mask, ws).view(-1, ws * ws)
attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
print(img_mask[0, :, :, 0])
print(attn_mask.shape, attn_mask[3])

wa = WindowAttention(C, ws, heads=2)
print(wa.relative_position_index)
with torch.no_grad():
    for i, p in enumerate(wa.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p) * 0.2)

x = torch.sin(torch.arange(2 * H * W * C, dtype=torch.float32) * 0.17).view(2, H, W, C)
x.requires_grad_(True)
shifted = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
xw = window_partition(shifted, ws).view(-1, ws * ws, C)
print(xw.shape, xw.grad_fn.name())
out = wa(xw, mask=attn_mask).view(-1, ws, ws, C)
y = torch.roll(window_reverse(out, ws, H, W), shifts=(shift, shift), dims=(1, 2))
print(y.shape, y.grad_fn.name())
print(y[0, 0].detach())
y.pow(2).mean().backward()
print(x.grad[1, 3])
print(wa.relative_position_bias_table.grad[:5])
print(sorted(wa.state_dict().keys()))
print(torch.equal(window_reverse(window_partition(x, ws), ws, H, W), x))
