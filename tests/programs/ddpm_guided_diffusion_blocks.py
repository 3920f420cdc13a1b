# openai/guided-diffusion idioms: GroupNorm32 that normalizes in float32 and casts back
# (.type(x.dtype)), zero_module() for output convs, TimestepEmbedSequential dispatch,
# QKVAttentionLegacy with einsum "bct,bcs->bts", checkpointed ResBlock, AvgPool Downsample,
# learned-sigma output split (eps, var_values), and GroupNorm32 on float16 input.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class GroupNorm32(nn.GroupNorm):
    def forward(self, x):
        return super().forward(x.float()).type(x.dtype)


def normalization(ch):
    return GroupNorm32(2, ch)


def zero_module(module):
    for p in module.parameters():
        p.detach().zero_()
    return module


class TimestepBlock(nn.Module):
    pass


class TimestepEmbedSequential(nn.Sequential, TimestepBlock):
    def forward(self, x, emb):
        for layer in self:
            x = layer(x, emb) if isinstance(layer, TimestepBlock) else layer(x)
        return x


class ResBlock(TimestepBlock):
    def __init__(self, ch, emb_ch, out_ch=None, use_checkpoint=True):
        super().__init__()
        out_ch = out_ch or ch
        self.use_checkpoint = use_checkpoint
        self.in_layers = nn.Sequential(normalization(ch), nn.SiLU(), nn.Conv2d(ch, out_ch, 3, padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_ch, out_ch))
        self.out_layers = nn.Sequential(normalization(out_ch), nn.SiLU(), nn.Dropout(p=0.0),
                                        zero_module(nn.Conv2d(out_ch, out_ch, 3, padding=1)))
        self.skip = nn.Identity() if out_ch == ch else nn.Conv2d(ch, out_ch, 1)

    def _forward(self, x, emb):
        h = self.in_layers(x)
        emb_out = self.emb_layers(emb).type(h.dtype)
        while len(emb_out.shape) < len(h.shape):
            emb_out = emb_out[..., None]
        return self.skip(x) + self.out_layers(h + emb_out)

    def forward(self, x, emb):
        if self.use_checkpoint and x.requires_grad:
            return checkpoint(self._forward, x, emb, use_reentrant=False)
        return self._forward(x, emb)


class AttentionBlock(nn.Module):
    def __init__(self, ch, heads=2):
        super().__init__()
        self.heads = heads
        self.norm = normalization(ch)
        self.qkv = nn.Conv1d(ch, ch * 3, 1)
        self.proj_out = zero_module(nn.Conv1d(ch, ch, 1))

    def forward(self, x):
        b, c, *spatial = x.shape
        x = x.reshape(b, c, -1)
        qkv = self.qkv(self.norm(x))
        bs, width, length = qkv.shape
        ch = width // (3 * self.heads)
        q, k, v = qkv.reshape(bs * self.heads, ch * 3, length).split(ch, dim=1)
        scale = 1 / math.sqrt(math.sqrt(ch))
        weight = torch.einsum("bct,bcs->bts", q * scale, k * scale)
        weight = torch.softmax(weight.float(), dim=-1).type(weight.dtype)
        a = torch.einsum("bts,bcs->bct", weight, v).reshape(bs, -1, length)
        return (x + self.proj_out(a)).reshape(b, c, *spatial)


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TinyGuidedUNet(nn.Module):
    def __init__(self, ch=4, emb_ch=8):
        super().__init__()
        self.time_embed = nn.Sequential(nn.Linear(ch, emb_ch), nn.SiLU(), nn.Linear(emb_ch, emb_ch))
        self.inp = TimestepEmbedSequential(nn.Conv2d(2, ch, 3, padding=1))
        self.down = TimestepEmbedSequential(ResBlock(ch, emb_ch), nn.AvgPool2d(2))
        self.mid = TimestepEmbedSequential(ResBlock(ch, emb_ch), AttentionBlock(ch), ResBlock(ch, emb_ch))
        self.up = TimestepEmbedSequential(ResBlock(2 * ch, emb_ch, ch), nn.Upsample(scale_factor=2))
        self.out = nn.Sequential(normalization(ch), nn.SiLU(), nn.Conv2d(ch, 4, 3, padding=1))

    def forward(self, x, t):
        emb = self.time_embed(timestep_embedding(t, 4))
        h0 = self.inp(x, emb)
        h = self.down(h0, emb)
        h = self.mid(h, emb)
        h = self.up(torch.cat([h, F.avg_pool2d(h0, 2)], dim=1), emb)
        return self.out(h)


model = TinyGuidedUNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.add_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape) * 0.2 - p)
zero_module(model.mid[1].proj_out)
print([n for n, m in model.named_modules() if isinstance(m, TimestepBlock)])
print(model.mid[1])

x = torch.sin(torch.arange(2 * 2 * 8 * 8, dtype=torch.float32) * 0.45).reshape(2, 2, 8, 8).requires_grad_()
t = torch.tensor([10, 400])
out = model(x, t)
eps, var_values = torch.split(out, 2, dim=1)
print(out.shape, eps.shape, var_values.shape, f"{eps.sum().item():.4f}")
loss = eps.pow(2).mean() + 0.1 * var_values.abs().mean()
loss.backward()
print(f"{loss.item():.5f}", x.grad.shape, f"{x.grad.abs().sum().item():.5f}")
print(model.mid[1].proj_out.weight.grad.abs().sum() > 0, model.mid[1].qkv.weight.grad.abs().sum().item())

with torch.no_grad():
    o = model(x.detach(), t)
print(o.dtype, o.shape, o.requires_grad)
print(model.out[0](torch.zeros(1, 4, 2, 2, dtype=torch.float16)).dtype, model.inp[0].weight.half().dtype)
