# A small lucidrains-style DDPM UNet: ResnetBlock with GroupNorm + SiLU + time-embedding scale/shift,
# spatial self-attention with qkv 1x1 conv and softmax over positions, Downsample via stride-2 conv,
# Upsample via F.interpolate(nearest) + conv, skip connections with torch.cat; eps-MSE training.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        half = self.dim // 2
        emb = math.log(10000) / (half - 1)
        emb = torch.exp(torch.arange(half) * -emb)
        emb = x[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, time_dim, groups=2):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_dim, dim_out * 2))
        self.norm1 = nn.GroupNorm(groups, dim)
        self.conv1 = nn.Conv2d(dim, dim_out, 3, padding=1)
        self.norm2 = nn.GroupNorm(groups, dim_out)
        self.conv2 = nn.Conv2d(dim_out, dim_out, 3, padding=1)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, t):
        scale, shift = self.mlp(t)[:, :, None, None].chunk(2, dim=1)
        h = self.conv1(F.silu(self.norm1(x)))
        h = self.norm2(h) * (scale + 1) + shift
        h = self.conv2(F.silu(h))
        return h + self.res_conv(x)


class Attention(nn.Module):
    def __init__(self, dim, heads=2, dim_head=4):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.norm = nn.GroupNorm(1, dim)
        self.to_qkv = nn.Conv2d(dim, heads * dim_head * 3, 1, bias=False)
        self.to_out = nn.Conv2d(heads * dim_head, dim, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        qkv = self.to_qkv(self.norm(x)).chunk(3, dim=1)
        q, k, v = [t.reshape(b, self.heads, -1, h * w) for t in qkv]
        q = q * self.scale
        sim = torch.einsum("b h d i, b h d j -> b h i j", q, k)
        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b h i j, b h d j -> b h i d", attn, v)
        out = out.permute(0, 1, 3, 2).reshape(b, -1, h, w)
        return self.to_out(out) + x


class UNet(nn.Module):
    def __init__(self, ch=4, tdim=8):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(ch), nn.Linear(ch, tdim), nn.GELU(), nn.Linear(tdim, tdim))
        self.init_conv = nn.Conv2d(1, ch, 3, padding=1)
        self.down1 = ResnetBlock(ch, ch, tdim)
        self.downsample = nn.Conv2d(ch, ch * 2, 4, 2, 1)
        self.mid = ResnetBlock(ch * 2, ch * 2, tdim)
        self.mid_attn = Attention(ch * 2)
        self.up_conv = nn.Conv2d(ch * 2, ch, 3, padding=1)
        self.up1 = ResnetBlock(ch * 2, ch, tdim)
        self.final = nn.Conv2d(ch, 1, 1)

    def forward(self, x, time):
        t = self.time_mlp(time)
        x = self.init_conv(x)
        h1 = self.down1(x, t)
        h = self.mid_attn(self.mid(self.downsample(h1), t))
        h = self.up_conv(F.interpolate(h, scale_factor=2, mode="nearest"))
        h = self.up1(torch.cat((h, h1), dim=1), t)
        return self.final(h)


model = UNet()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i * 0.5).reshape(p.shape) * 0.25)
print(sum(p.numel() for p in model.parameters()), len(list(model.state_dict().keys())))

T = 100
betas = torch.linspace(1e-4, 0.02, T)
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
sqrt_ac, sqrt_1m = alphas_cumprod.sqrt(), (1 - alphas_cumprod).sqrt()

x0 = torch.cos(torch.arange(2 * 64, dtype=torch.float32) * 0.15).reshape(2, 1, 8, 8)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(6):
    t = torch.tensor([7 * step + 3, 90 - 11 * step])
    noise = torch.sin(torch.arange(x0.numel(), dtype=torch.float32) * 1.7 + step).reshape(x0.shape)
    x_t = sqrt_ac[t].view(-1, 1, 1, 1) * x0 + sqrt_1m[t].view(-1, 1, 1, 1) * noise
    loss = F.mse_loss(model(x_t, t.float()), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
out = model(x0, torch.tensor([5.0, 50.0]))
print(out.shape, out.grad_fn.__class__.__name__)
print(model.mid_attn.to_qkv.weight.grad.shape, round(model.down1.norm1.weight.grad.norm().item(), 3))
