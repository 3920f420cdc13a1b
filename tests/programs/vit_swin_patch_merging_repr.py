# Swin PatchMerging (strided slicing x[:, 0::2, 1::2] + cat + LayerNorm + Linear reduction), a DropPath
# module with extra_repr, and print(model) of a Sequential/ModuleList stage as users inspect it;
# apply(_init_weights) with isinstance checks and named_modules / get_submodule.
from collections import OrderedDict
import torch
import torch.nn as nn


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return x

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


class PatchMerging(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(4 * dim)
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)

    def forward(self, x):
        x0 = x[:, 0::2, 0::2, :]
        x1 = x[:, 1::2, 0::2, :]
        x2 = x[:, 0::2, 1::2, :]
        x3 = x[:, 1::2, 1::2, :]
        x = torch.cat([x0, x1, x2, x3], -1)
        return self.reduction(self.norm(x))


class Mlp(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim * 2)
        self.act = nn.GELU(approximate="tanh")
        self.fc2 = nn.Linear(dim * 2, dim)
        self.drop = nn.Dropout(0.0)

    def forward(self, x):
        return self.drop(self.fc2(self.act(self.fc1(x))))


class Block(nn.Module):
    def __init__(self, dim, dp):
        super().__init__()
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = Mlp(dim)
        self.drop_path = DropPath(dp) if dp > 0.0 else nn.Identity()

    def forward(self, x):
        return x + self.drop_path(self.mlp(self.norm(x)))


dpr = [x.item() for x in torch.linspace(0, 0.1, 3)]
stage = nn.Sequential(OrderedDict([
    ("blocks", nn.ModuleList([Block(4, d) for d in dpr])),
    ("downsample", PatchMerging(4)),
]))
print(stage)


def _init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.05)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LayerNorm):
        nn.init.ones_(m.weight)
        nn.init.constant_(m.bias, 0.01)


stage.apply(_init_weights)
print([n for n, _ in stage.named_modules()][:8])
print(stage.get_submodule("blocks.2.drop_path"), stage.get_submodule("downsample.reduction"))
x = torch.cos(torch.arange(2 * 4 * 4 * 4, dtype=torch.float32) * 0.11).view(2, 4, 4, 4)
h = x
for blk in stage.blocks:
    h = blk(h)
y = stage.downsample(h)
print(h.shape, y.shape, y.grad_fn.name())
print(y[0, 0, 0].detach())
print(x[:, 1::2, 0::2, :].shape, x[:, 1::2, 0::2, :].stride(), x[:, 1::2, 0::2, :].is_contiguous())
y.sum().backward()
print(stage.downsample.norm.weight.grad[:6])
print(stage.blocks[0].mlp.fc1.weight.grad.sum().item() != 0)
decay = [n for n, p in stage.named_parameters() if p.ndim > 1]
no_decay = [n for n, p in stage.named_parameters() if p.ndim <= 1]
print(len(decay), len(no_decay), no_decay[:3])
print(stage.blocks[1:])
