# ConvNeXt block from the reference implementation: 7x7 depthwise conv, LayerNorm over channels-last
# via permute, pointwise Linear MLP with GELU, layer scale gamma, and DropPath (stochastic depth)
# written by hand with a fixed keep mask; a channels_first LayerNorm for the downsample stem.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-6, data_format="channels_last"):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps, self.data_format, self.shape = eps, data_format, (dim,)

    def forward(self, x):
        if self.data_format == "channels_last":
            return F.layer_norm(x, self.shape, self.weight, self.bias, self.eps)
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


def drop_path(x, keep_mask, drop_prob, training):
    if drop_prob == 0.0 or not training:
        return x
    keep = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    return x.div(keep) * keep_mask.view(shape).to(x.dtype)


class Block(nn.Module):
    def __init__(self, dim, drop_path=0.0, ls_init=1e-1):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = LayerNorm(dim)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(ls_init * torch.ones(dim))
        self.drop_prob = drop_path

    def forward(self, x, keep_mask):
        inp = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)
        x = self.norm(x)
        x = self.pwconv2(self.act(self.pwconv1(x)))
        x = self.gamma * x
        x = x.permute(0, 3, 1, 2)
        return inp + drop_path(x, keep_mask, self.drop_prob, self.training)


torch.manual_seed(0)
dim = 8
stem = nn.Sequential(nn.Conv2d(3, dim, kernel_size=2, stride=2), LayerNorm(dim, data_format="channels_first"))
blocks = nn.ModuleList([Block(dim, drop_path=r) for r in torch.linspace(0, 0.2, 2).tolist()])
head = nn.Sequential(nn.Flatten(), nn.Linear(dim, 3))
params = list(stem.parameters()) + list(blocks.parameters()) + list(head.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.3)
print("params:", sum(p.numel() for p in params))
print([round(r, 3) for r in torch.linspace(0, 0.2, 2).tolist()])
print(blocks[0].dwconv.weight.shape, blocks[0].dwconv.groups)

x = torch.cos(torch.arange(4 * 3 * 8 * 8, dtype=torch.float32) * 0.05).view(4, 3, 8, 8)
y = torch.tensor([0, 1, 2, 1])
keep = torch.tensor([1.0, 0.0, 1.0, 1.0])
opt = torch.optim.AdamW(params, lr=1e-2, weight_decay=0.05)
for step in range(12):
    h = stem(x)
    for b in blocks:
        h = b(h, keep)
    logits = head(F.adaptive_avg_pool2d(h, 1))
    loss = F.cross_entropy(logits, y, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", h.shape, logits.grad_fn.name())

print((blocks[1].gamma.grad * 1e3).round(decimals=1))
print(blocks[0].dwconv.weight.grad[0, 0, 0].mul(1e3).round(decimals=2))
blocks.eval()
h = stem(x)
with torch.no_grad():
    out = blocks[1](h, keep)
print(out.shape, out.requires_grad, f"{out.abs().sum().item():.3f}")
print(h.permute(0, 2, 3, 1).is_contiguous(), h.permute(0, 2, 3, 1).stride())
