# timm PatchEmbed: to_2tuple via collections.abc + itertools.repeat, strict_img_size checks with
# torch._assert, dynamic_img_pad padding H/W up to the patch size with F.pad, output_fmt NCHW / NHWC
# / NLC (flatten(2).transpose(1, 2)), and a SwiGLU / GluMlp on the tokens (chunk on the last dim).
import collections.abc
from itertools import repeat
import torch
import torch.nn as nn
import torch.nn.functional as F


def _ntuple(n):
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse


to_2tuple = _ntuple(2)


class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=2, embed_dim=6, output_fmt="NLC",
                 strict_img_size=True, dynamic_img_pad=False, norm_layer=None):
        super().__init__()
        self.patch_size = to_2tuple(patch_size)
        self.img_size = to_2tuple(img_size)
        self.grid_size = tuple(s // p for s, p in zip(self.img_size, self.patch_size))
        self.num_patches = self.grid_size[0] * self.grid_size[1]
        self.output_fmt = output_fmt
        self.strict_img_size = strict_img_size
        self.dynamic_img_pad = dynamic_img_pad
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = norm_layer(embed_dim) if norm_layer else nn.Identity()

    def forward(self, x):
        B, C, H, W = x.shape
        if self.strict_img_size:
            torch._assert(H == self.img_size[0], f"Input height ({H}) doesn't match model ({self.img_size[0]}).")
            torch._assert(W == self.img_size[1], f"Input width ({W}) doesn't match model ({self.img_size[1]}).")
        elif not self.dynamic_img_pad:
            torch._assert(H % self.patch_size[0] == 0,
                          f"Input height ({H}) should be divisible by patch size ({self.patch_size[0]}).")
        if self.dynamic_img_pad:
            pad_h = (self.patch_size[0] - H % self.patch_size[0]) % self.patch_size[0]
            pad_w = (self.patch_size[1] - W % self.patch_size[1]) % self.patch_size[1]
            x = F.pad(x, (0, pad_w, 0, pad_h))
        x = self.proj(x)
        if self.output_fmt == "NLC":
            x = x.flatten(2).transpose(1, 2)
        elif self.output_fmt == "NHWC":
            x = x.permute(0, 2, 3, 1)
        return self.norm(x)


class GluMlp(nn.Module):
    def __init__(self, dim, hidden, act=nn.SiLU, gate_last=True):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden * 2)
        self.act = act()
        self.fc2 = nn.Linear(hidden, dim)
        self.chunk_dim = -1
        self.gate_last = gate_last

    def forward(self, x):
        x1, x2 = self.fc1(x).chunk(2, dim=self.chunk_dim)
        x = x1 * self.act(x2) if self.gate_last else self.act(x1) * x2
        return self.fc2(x)


def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.45 + i).reshape(p.shape) * 0.3)
    return m


print(to_2tuple(4), to_2tuple((3, 5)), to_2tuple([1, 2]), to_2tuple("ab"))
x = torch.sin(torch.arange(2 * 2 * 8 * 8, dtype=torch.float32) * 0.2).reshape(2, 2, 8, 8)
for fmt in ("NLC", "NHWC", "NCHW"):
    pe = fill(PatchEmbed(output_fmt=fmt, norm_layer=nn.LayerNorm if fmt != "NCHW" else None))
    y = pe(x)
    print(fmt, tuple(y.shape), y.is_contiguous(), pe.grid_size, pe.num_patches)
pe = fill(PatchEmbed())
tok = pe(x)
print(tok[0, :2].detach())
for shape in [(1, 2, 8, 9), (1, 2, 7, 8)]:
    try:
        pe(torch.zeros(shape))
    except AssertionError as e:
        print(type(e).__name__, e)
loose = fill(PatchEmbed(strict_img_size=False))
try:
    loose(torch.zeros(1, 2, 10, 8))
except AssertionError as e:
    print(type(e).__name__, e)
dyn = fill(PatchEmbed(strict_img_size=False, dynamic_img_pad=True))
out = dyn(x[:, :, :7, :6])
print(out.shape, out[1, -1].detach())

mlp = fill(GluMlp(6, 5))
mlp2 = fill(GluMlp(6, 5, act=nn.Sigmoid, gate_last=False))
params = list(pe.parameters()) + list(mlp.parameters())
opt = torch.optim.AdamW(params, lr=0.01, weight_decay=0.05)
target = torch.zeros(2, 4, 6)
for step in range(8):
    opt.zero_grad()
    loss = F.smooth_l1_loss(mlp(pe(x)) + 0.5 * mlp2(pe(x)).detach(), target, beta=0.5)
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(step, f"{loss.item():.5f}", f"{pe.proj.weight.grad.norm().item():.5f}")
print(mlp.fc1.weight.grad.shape, opt.state_dict()["state"][0]["step"])
