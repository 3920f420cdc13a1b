# DDPM training and sampling, scaled down: sinusoidal time embeddings
# (exp(-log(10000) * arange / half)), a tiny conv denoiser conditioned on t through a Linear +
# SiLU MLP, the noise-prediction MSE / L1 / smooth-L1 losses, one optimizer step, and the
# p_sample loop with @torch.no_grad(), all with deterministic noise.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=time.device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        embeddings = torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)
        return embeddings


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, ch=4, tdim=8):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPositionEmbeddings(tdim), nn.Linear(tdim, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.conv_in = nn.Conv2d(1, ch, 3, padding=1)
        self.norm = nn.GroupNorm(2, ch)
        self.conv_out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        h = self.conv_in(x)
        h = h + self.time_mlp(t)[:, :, None, None]
        h = F.silu(self.norm(h))
        return self.conv_out(h)


t = torch.tensor([0, 1, 7, 99])
emb = SinusoidalPositionEmbeddings(8)(t)
print(emb.shape, emb[2])
print(timestep_embedding(t, 6))
print(timestep_embedding(torch.tensor([3.5]), 5).shape)

T = 20
betas = torch.linspace(1e-4, 0.2, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = torch.cat([torch.ones(1), alphas_cumprod[:-1]])
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)

model = Denoiser()
print(model)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).reshape(p.shape) * 0.3)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x0 = torch.sin(torch.arange(4 * 36, dtype=torch.float32) * 0.2).view(4, 1, 6, 6)
for step in range(3):
    tt = (torch.arange(4) * 5 + step) % T
    noise = torch.sin(torch.arange(4 * 36, dtype=torch.float32) * 2.1 + step).view_as(x0)
    a = alphas_cumprod[tt].view(-1, 1, 1, 1)
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    pred = model(x_t, tt)
    loss = F.mse_loss(noise, pred)
    l1 = F.l1_loss(noise, pred)
    hub = F.smooth_l1_loss(noise, pred)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(f"step {step} t={tt.tolist()} mse {loss.item():.5f} l1 {l1.item():.5f} huber {hub.item():.5f} gnorm {gn:.4f}")
print(model.time_mlp[1].weight.grad.shape, model.norm.weight.grad)


@torch.no_grad()
def p_sample(model, x, t, t_index):
    betas_t = betas[t].view(-1, 1, 1, 1)
    sqrt_one_minus = torch.sqrt(1 - alphas_cumprod[t]).view(-1, 1, 1, 1)
    sqrt_recip = torch.sqrt(1.0 / alphas[t]).view(-1, 1, 1, 1)
    model_mean = sqrt_recip * (x - betas_t * model(x, t) / sqrt_one_minus)
    if t_index == 0:
        return model_mean
    z = torch.cos(x * 3.0 + t_index)
    return model_mean + torch.sqrt(posterior_variance[t].view(-1, 1, 1, 1)) * z


img = torch.sin(torch.arange(2 * 36, dtype=torch.float32)).view(2, 1, 6, 6)
imgs = []
for i in reversed(range(0, T, 5)):
    img = p_sample(model, img, torch.full((2,), i, dtype=torch.long), i)
    imgs.append(img.cpu().numpy())
print(len(imgs), imgs[-1].shape, img.requires_grad, img[0, 0, 0])
print(img.clamp(-1, 1).add(1).div(2).mul(255).round().to(torch.uint8)[1, 0, :2])
print(torch.full((2,), 3).dtype, torch.full((2,), 3.0).dtype)
