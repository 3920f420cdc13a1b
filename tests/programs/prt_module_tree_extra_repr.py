# print(model) for a small transformer-ish model: custom extra_repr (one- and multi-line),
# repeated blocks in ModuleList, ModuleDict heads, lazy layers before/after first call, and
# the parameter count table people print under it.
import torch
import torch.nn as nn


class ScaledAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.dim, self.heads = dim, heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)

    def extra_repr(self):
        return f"dim={self.dim}, heads={self.heads}, scale={(self.dim // self.heads) ** -0.5:.4f}"


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = ScaledAttention(dim, 2)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Dropout(0.1),
                                 nn.Linear(4 * dim, dim))


class Note(nn.Module):
    def extra_repr(self):
        return "first line\nsecond line"


class Tiny(nn.Module):
    def __init__(self, dim=8, depth=3):
        super().__init__()
        self.embed = nn.Embedding(16, dim, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, 4, dim))
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(dim, 3), "reg": nn.Sequential(nn.Linear(dim, 1), nn.Sigmoid())})
        self.note = Note()
        self.lazy = nn.LazyLinear(2)
        self.empty = nn.Sequential()
        self.mixed = nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh(), nn.ReLU()])

    def forward(self, idx):
        h = self.embed(idx) + self.pos
        for blk in self.blocks:
            h = h + blk.mlp(blk.norm2(h))
        return self.lazy(h.mean(1))


model = Tiny()
print(model)
print(model.blocks[0].attn)
print(model.heads)
print(model.mixed)
print(repr(model.note))
print(model.lazy, model.lazy.weight)

out = model(torch.arange(8).view(2, 4) % 16)
print(out.shape, model.lazy)
print(model.lazy.weight.shape)

total = 0
print(f"{'name':40s} {'shape':>16s} {'numel':>7s}")
for name, p in model.named_parameters():
    total += p.numel()
    print(f"{name:40s} {str(tuple(p.shape)):>16s} {p.numel():7d}")
print(f"total params: {total:,}")
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_children()])
print([n for n, _ in model.named_modules()][:8])
print(model.get_submodule("blocks.1.mlp.1"))
print(model.blocks[1:])
print(nn.Sequential(model.blocks[0].mlp[0], *model.blocks[0].mlp[1:3]))
