# timm checkpoint_filter_fn for a ViT: strip "module." prefixes, remap old key names with re.sub,
# resample_abs_pos_embed keeping num_prefix_tokens (cls) and resizing the grid with
# F.interpolate(mode="bicubic", align_corners=False, antialias=...), then load_state_dict(strict=False).
import math
import re
import torch
import torch.nn as nn
import torch.nn.functional as F


def resample_abs_pos_embed(posemb, new_size, old_size=None, num_prefix_tokens=1, interpolation="bicubic", antialias=True):
    num_pos_tokens = posemb.shape[1]
    num_new_tokens = new_size[0] * new_size[1] + num_prefix_tokens
    if num_new_tokens == num_pos_tokens and new_size[0] == new_size[1]:
        return posemb
    if old_size is None:
        hw = int(math.sqrt(num_pos_tokens - num_prefix_tokens))
        old_size = hw, hw
    if num_prefix_tokens:
        posemb_prefix, posemb = posemb[:, :num_prefix_tokens], posemb[:, num_prefix_tokens:]
    else:
        posemb_prefix = None
    embed_dim = posemb.shape[-1]
    orig_dtype = posemb.dtype
    posemb = posemb.float()
    posemb = posemb.reshape(1, old_size[0], old_size[1], -1).permute(0, 3, 1, 2)
    posemb = F.interpolate(posemb, size=new_size, mode=interpolation, antialias=antialias, align_corners=False)
    posemb = posemb.permute(0, 2, 3, 1).reshape(1, -1, embed_dim)
    posemb = posemb.to(orig_dtype)
    if posemb_prefix is not None:
        posemb = torch.cat([posemb_prefix, posemb], dim=1)
    return posemb


class TinyViT(nn.Module):
    def __init__(self, img_size=12, patch=3, dim=4):
        super().__init__()
        self.grid = img_size // patch
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, self.grid ** 2 + 1, dim))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        return self.head(self.norm(x)[:, 0])


def checkpoint_filter_fn(state_dict, model, antialias=True):
    out = {}
    for k, v in state_dict.items():
        k = k.replace("module.", "", 1) if k.startswith("module.") else k
        k = re.sub(r"^patch_embed\.proj\.", "patch_embed.", k)
        k = re.sub(r"^fc_norm\.", "norm.", k)
        if "relative_position_index" in k:
            continue
        if k == "pos_embed" and v.shape[1] != model.pos_embed.shape[1]:
            v = resample_abs_pos_embed(v, (model.grid, model.grid), num_prefix_tokens=1, antialias=antialias)
        out[k] = v
    return out


src = TinyViT(img_size=15)
with torch.no_grad():
    for i, (n, p) in enumerate(src.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).reshape(p.shape))
sd = {}
for k, v in src.state_dict().items():
    k = "module." + k.replace("patch_embed.", "patch_embed.proj.").replace("norm.", "fc_norm.")
    sd[k] = v
sd["module.blocks.0.attn.relative_position_index"] = torch.arange(4)
sd["module.extra_head.weight"] = torch.ones(2)
print(list(sd.keys()))

for antialias in (True, False):
    dst = TinyViT(img_size=12)
    filtered = checkpoint_filter_fn(sd, dst, antialias=antialias)
    print(sorted(filtered.keys()), tuple(filtered["pos_embed"].shape))
    res = dst.load_state_dict(filtered, strict=False)
    print(res.missing_keys, res.unexpected_keys)
    print(dst.pos_embed[0, :3].detach())
    print(torch.equal(dst.pos_embed[0, 0], src.pos_embed[0, 0]))

up = resample_abs_pos_embed(src.pos_embed.detach(), (7, 7), antialias=True)
print(up.shape, up[0, 1:4])
same = resample_abs_pos_embed(src.pos_embed.detach(), (5, 5))
print(same is not None and torch.equal(same, src.pos_embed))
half = resample_abs_pos_embed(src.pos_embed.detach().half(), (3, 3), interpolation="bilinear")
print(half.dtype, half[0, -1])
np_ = resample_abs_pos_embed(src.pos_embed.detach()[:, 1:], (2, 4), num_prefix_tokens=0, antialias=False)
print(np_.shape, np_[0, :, 0])
try:
    dst.load_state_dict(filtered)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
x = torch.cos(torch.arange(2 * 3 * 12 * 12, dtype=torch.float32) * 0.07).reshape(2, 3, 12, 12)
print(dst(x).detach())
