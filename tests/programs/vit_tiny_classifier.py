# A tiny ViT classifier written from scratch (blog-post style): Conv2d patch embedding, class token
# and learned positional embedding via expand/cat, pre-norm blocks with nn.MultiheadAttention and an
# MLP with GELU, trained for a few steps with AdamW + cosine schedule; prints param counts and losses.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads, mlp_ratio=2.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        h = self.norm1(x)
        a, w = self.attn(h, h, h, need_weights=True)
        x = x + a
        return x + self.mlp(self.norm2(x)), w


class ViT(nn.Module):
    def __init__(self, img=8, patch=4, chans=3, dim=16, depth=2, heads=2, classes=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(chans, dim, kernel_size=patch, stride=patch)
        n = (img // patch) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, n + 1, dim))
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        maps = []
        for blk in self.blocks:
            x, w = blk(x)
            maps.append(w)
        return self.head(self.norm(x)[:, 0]), maps


model = ViT()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.2)
n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"params: {n_params}")
for name, p in list(model.named_parameters())[:8]:
    print(name, tuple(p.shape))

imgs = torch.sin(torch.arange(6 * 3 * 8 * 8, dtype=torch.float32) * 0.031).view(6, 3, 8, 8)
labels = torch.tensor([0, 1, 2, 3, 0, 1])
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, betas=(0.9, 0.999), weight_decay=0.05)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.5 * (1 + math.cos(math.pi * s / 20)))
for step in range(20):
    logits, maps = model(imgs)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}", f"{sched.get_last_lr()[0]:.6f}")

print(logits.shape, logits.grad_fn.name(), len(maps), maps[0].shape)
print(torch.allclose(maps[-1][0].detach().sum(-1), torch.ones(5)), maps[-1][0, 0].detach())
print(model.cls_token.grad.shape, model.pos_embed.grad.abs().sum().item() > 0)
model.eval()
with torch.no_grad():
    pred = model(imgs)[0].argmax(-1)
print(pred, (pred == labels).float().mean().item())
