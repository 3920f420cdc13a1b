# BEiT-style relative position bias with extra entries for the class token (index table built with
# torch.zeros + slice assignment), CaiT LayerScale via in-place mul_, gradient checkpointing of blocks
# with torch.utils.checkpoint, and loading a checkpoint whose pos_embed is resized (strict=False).
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


def relative_index(wh, ww):
    num_rel = (2 * wh - 1) * (2 * ww - 1) + 3
    coords = torch.stack(torch.meshgrid(torch.arange(wh), torch.arange(ww), indexing="ij"))
    cf = torch.flatten(coords, 1)
    rel = (cf[:, :, None] - cf[:, None, :]).permute(1, 2, 0).contiguous()
    rel[:, :, 0] += wh - 1
    rel[:, :, 1] += ww - 1
    rel[:, :, 0] *= 2 * ww - 1
    index = torch.zeros(size=(wh * ww + 1,) * 2, dtype=rel.dtype)
    index[1:, 1:] = rel.sum(-1)
    index[0, 0:] = num_rel - 3
    index[0:, 0] = num_rel - 2
    index[0, 0] = num_rel - 1
    return num_rel, index


class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-1, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma


class Block(nn.Module):
    def __init__(self, dim, heads, grid):
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        n, idx = relative_index(*grid)
        self.table = nn.Parameter(torch.zeros(n, heads))
        self.register_buffer("index", idx, persistent=False)
        self.ls = LayerScale(dim, inplace=True)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(self.norm(x)).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4).unbind(0)
        bias = self.table[self.index.view(-1)].view(N, N, -1).permute(2, 0, 1)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias.unsqueeze(0))
        return x + self.ls(self.proj(o.transpose(1, 2).reshape(B, N, C)))


n, idx = relative_index(2, 2)
print(n, idx)
blocks = nn.ModuleList([Block(8, 2, (2, 2)) for _ in range(2)])
with torch.no_grad():
    for i, p in enumerate(blocks.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view_as(p) * 0.3)
x0 = torch.sin(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.1).view(2, 5, 8).requires_grad_()

def run(use_ckpt):
    x = x0
    for b in blocks:
        x = checkpoint(b, x, use_reentrant=False) if use_ckpt else b(x)
    return x

plain = run(False)
plain.square().sum().backward()
g_plain = [p.grad.clone() for p in blocks.parameters()]
blocks.zero_grad()
x0.grad = None
ck = run(True)
ck.square().sum().backward()
print(torch.allclose(plain, ck), all(torch.allclose(a, b.grad, atol=1e-6) for a, b in zip(g_plain, blocks.parameters())))
print(plain.grad_fn.name(), ck.shape, x0.grad[0, 0])
print(blocks[0].table.grad[-3:])

class Tiny(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.pos_embed = nn.Parameter(torch.arange(n * 4, dtype=torch.float32).view(1, n, 4))
        self.head = nn.Linear(4, 2)

src = Tiny(1 + 4)
buf = io.BytesIO()
torch.save(src.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
pe = sd["pos_embed"]
cls_pe, grid = pe[:, :1], pe[:, 1:].reshape(1, 2, 2, 4).permute(0, 3, 1, 2)
grid = F.interpolate(grid, size=(3, 3), mode="bicubic", align_corners=False)
sd["pos_embed"] = torch.cat([cls_pe, grid.permute(0, 2, 3, 1).flatten(1, 2)], dim=1)
sd["extra.weight"] = torch.zeros(1)
del sd["head.bias"]
dst = Tiny(1 + 9)
res = dst.load_state_dict(sd, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys, dst.pos_embed.shape)
print(dst.pos_embed[0, 1:4].detach())
try:
    dst.load_state_dict({"pos_embed": pe, "head.weight": torch.zeros(2, 4), "head.bias": torch.zeros(2)})
except Exception as e:
    print(type(e).__name__, e)
