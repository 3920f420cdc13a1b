# DDIM sampling with classifier-free guidance: class embedding with a null token, conditional and
# unconditional predictions batched with torch.cat and mixed with a guidance scale, x0 prediction
# clamped to [-1, 1], eta=0 deterministic update, timesteps subsequence from torch.linspace.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(0, half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class CondDenoiser(nn.Module):
    def __init__(self, num_classes=3, ch=6, tdim=8):
        super().__init__()
        self.tdim = tdim
        self.class_emb = nn.Embedding(num_classes + 1, tdim)  # last index = null class
        self.t_proj = nn.Sequential(nn.Linear(tdim, tdim), nn.SiLU(), nn.Linear(tdim, ch))
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.norm = nn.GroupNorm(3, ch)
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t, y):
        emb = self.t_proj(timestep_embedding(t, self.tdim) + self.class_emb(y))
        h = self.inp(x) + emb[:, :, None, None]
        return self.out(F.silu(self.norm(h)))


model = CondDenoiser()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.91 + i).reshape(p.shape) * 0.3)
model.eval()

T = 1000
s = 0.008
steps = torch.arange(T + 1, dtype=torch.float64) / T
f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
alphas_cumprod = (f[1:] / f[0]).clamp(min=1e-5).float()
print(alphas_cumprod[[0, 250, 500, 999]])

ddim_steps = 10
timesteps = torch.linspace(T - 1, 0, ddim_steps).long()
print(timesteps.tolist())
null = 3
guidance = 3.0


@torch.no_grad()
def ddim_sample(x, y):
    b = x.shape[0]
    for i, t in enumerate(timesteps):
        t_prev = timesteps[i + 1] if i + 1 < len(timesteps) else torch.tensor(-1)
        tt = torch.full((b,), int(t), dtype=torch.long)
        x_in = torch.cat([x, x])
        t_in = torch.cat([tt, tt])
        y_in = torch.cat([y, torch.full_like(y, null)])
        eps_c, eps_u = model(x_in, t_in, y_in).chunk(2)
        eps = eps_u + guidance * (eps_c - eps_u)
        a_t = alphas_cumprod[t]
        a_prev = alphas_cumprod[t_prev] if t_prev >= 0 else torch.tensor(1.0)
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        x0 = x0.clamp(-1.0, 1.0)
        eps = (x - a_t.sqrt() * x0) / (1 - a_t).sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
        if i % 3 == 0:
            print(i, int(t), int(t_prev), f"{x.mean().item():.4f} {x.std().item():.4f}")
    return x


x_T = torch.sin(torch.arange(3 * 25, dtype=torch.float32) * 1.3).reshape(3, 1, 5, 5)
labels = torch.tensor([0, 1, 2])
sample = ddim_sample(x_T, labels)
print(sample.shape, sample.requires_grad, sample.dtype)
print(sample[:, 0, 2].round(decimals=3))
imgs = ((sample + 1) * 127.5).clamp(0, 255).to(torch.uint8)
print(imgs[0, 0])
