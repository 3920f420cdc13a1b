# timm ViT Block pieces: drop_path(x, drop_prob, training, scale_by_keep) with per-sample masks
# from x.new_empty(shape).bernoulli_(keep_prob) and div_, DropPath extra_repr, LayerScale with
# inplace x.mul_(gamma), and stochastic-depth rates from torch.linspace(0, rate, depth).tolist().
import torch
import torch.nn as nn


def drop_path(x, drop_prob: float = 0., training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0., scale_by_keep: bool = True):
        super().__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma


class Block(nn.Module):
    def __init__(self, dim, drop_path=0., init_values=None, inplace=False):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.ls1 = LayerScale(dim, init_values, inplace) if init_values else nn.Identity()
        self.drop_path1 = DropPath(drop_path) if drop_path > 0. else nn.Identity()

    def forward(self, x):
        return x + self.drop_path1(self.ls1(self.mlp(self.norm1(x))))


depth = 5
dpr = [x.item() for x in torch.linspace(0, 0.3, depth)]
print(dpr)
print(torch.linspace(0, 0.3, depth).tolist() == dpr)
blocks = nn.Sequential(*[Block(6, drop_path=dpr[i], init_values=0.1, inplace=i % 2 == 0) for i in range(depth)])
print(blocks[0].drop_path1, blocks[3].drop_path1, blocks[4])
with torch.no_grad():
    for i, (name, p) in enumerate(blocks.named_parameters()):
        if "mlp" in name:
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.3)

x = torch.sin(torch.arange(64 * 3 * 6, dtype=torch.float32) * 0.1).reshape(64, 3, 6)
blocks.eval()
y_eval = blocks(x)
print(y_eval[0].detach())
y_eval.sum().backward()
print(blocks[0].ls1.gamma.grad)
print(blocks[1].ls1.gamma.grad.shape, blocks[2].mlp[0].weight.grad.norm() > 0)

blocks.train()
h = x.clone()
dp = DropPath(0.5)
dp.train()
out = dp(h)
kept = (out.abs().sum((1, 2)) > 0)
print(out.shape, 0 < int(kept.sum()) < 64)
print(torch.allclose(out[kept], 2 * h[kept]), bool((out[~kept] == 0).all()))
out2 = drop_path(h, 0.5, True, scale_by_keep=False)
k2 = out2.abs().sum((1, 2)) > 0
print(torch.equal(out2[k2], h[k2]))
print(torch.equal(drop_path(h, 1.0, True), torch.zeros_like(h)))
print(drop_path(h, 0.0, True) is h, drop_path(h, 0.4, False) is h)
mask = h.new_empty((64, 1, 1)).bernoulli_(0.75)
print(mask.dtype, mask.shape, set(mask.unique().tolist()) <= {0.0, 1.0})
print(round(mask.div_(0.75).max().item(), 4))

z = torch.ones(2, 3, requires_grad=True)
ls = LayerScale(3, 0.5, inplace=True)
try:
    ls(z)
except RuntimeError as e:
    print(type(e).__name__, e)
w = z * 2
r = ls(w)
print(r, r.grad_fn.name(), w is r)
r.sum().backward()
print(z.grad, ls.gamma.grad)
