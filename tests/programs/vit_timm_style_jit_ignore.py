# timm-style ViT module: @torch.jit.ignore on no_weight_decay / group_matcher, a Final[bool]
# fused_attn flag, torch.jit.is_scripting() guards and torch._assert shape checks in forward, and
# optimizer parameter groups built from no_weight_decay().
from typing import Final
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=8):
        super().__init__()
        self.img_size = (img_size, img_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        B, C, H, W = x.shape
        torch._assert(H == self.img_size[0], f"Input height ({H}) doesn't match model ({self.img_size[0]}).")
        return self.proj(x).flatten(2).transpose(1, 2)


class Attention(nn.Module):
    fused_attn: Final[bool]

    def __init__(self, dim, num_heads=2):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.fused_attn = True
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4).unbind(0)
        if self.fused_attn and not torch.jit.is_scripting():
            x = F.scaled_dot_product_attention(q, k, v)
        else:
            x = ((q * self.scale) @ k.transpose(-2, -1)).softmax(-1) @ v
        return self.proj(x.transpose(1, 2).reshape(B, N, C))


class ViT(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, 5, dim))
        self.norm = nn.LayerNorm(dim)
        self.attn = Attention(dim)
        self.head = nn.Linear(dim, 3)

    @torch.jit.ignore
    def no_weight_decay(self):
        return {"pos_embed", "cls_token"}

    @torch.jit.ignore
    def group_matcher(self, coarse=False):
        return dict(stem=r"^cls_token|pos_embed|patch_embed", blocks=r"^attn")

    def forward(self, x):
        x = self.patch_embed(x)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        x = x + self.attn(self.norm(x))
        return self.head(x[:, 0])


model = ViT()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + i).view_as(p) * 0.25)
skip = model.no_weight_decay()
decay = [p for n, p in model.named_parameters() if p.ndim > 1 and n not in skip]
no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1 or n in skip]
print(sorted(skip), len(decay), len(no_decay), model.group_matcher())
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-2)
x = torch.cos(torch.arange(4 * 3 * 8 * 8, dtype=torch.float32) * 0.03).view(4, 3, 8, 8)
y = torch.tensor([0, 1, 2, 0])
for step in range(10):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}")
try:
    model(torch.zeros(1, 3, 12, 8))
except AssertionError as e:
    print("AssertionError", e)
print(torch.jit.is_scripting(), torch.jit.is_tracing())
