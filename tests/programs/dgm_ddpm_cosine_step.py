# DDPM training step (Ho et al. / lucidrains-style): linear and cosine beta schedules, cumprod of
# alphas, extract() gathering per-timestep coefficients into broadcastable shape, q_sample with
# fixed noise, epsilon-prediction MSE loss, and a posterior-mean reverse step.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def linear_beta_schedule(timesteps):
    scale = 1000 / timesteps
    return torch.linspace(scale * 0.0001, scale * 0.02, timesteps, dtype=torch.float64)


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    t = torch.linspace(0, timesteps, steps, dtype=torch.float64) / timesteps
    alphas_cumprod = torch.cos((t + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


T = 50
for name, fn in (("linear", linear_beta_schedule), ("cosine", cosine_beta_schedule)):
    betas = fn(T)
    alphas = 1.0 - betas
    alphas_cumprod = torch.cumprod(alphas, dim=0)
    alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
    print(name, betas.dtype, betas.shape, betas[:3], betas[-1].item())
    print(alphas_cumprod[[0, 10, 25, 49]])
    posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
    posterior_log_variance_clipped = torch.log(posterior_variance.clamp(min=1e-20))
    print(posterior_variance[:3], posterior_log_variance_clipped[:2])

betas = cosine_beta_schedule(T).float()
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
sqrt_ac = torch.sqrt(alphas_cumprod)
sqrt_1mac = torch.sqrt(1.0 - alphas_cumprod)


class Denoiser(nn.Module):
    def __init__(self, ch=2, emb=8):
        super().__init__()
        self.emb = nn.Embedding(T, emb)
        self.conv1 = nn.Conv2d(ch, emb, 3, padding=1)
        self.conv2 = nn.Conv2d(emb, ch, 3, padding=1)

    def forward(self, x, t):
        h = self.conv1(x) + self.emb(t)[:, :, None, None]
        return self.conv2(F.silu(h))


model = Denoiser()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view(p.shape))

x0 = torch.sin(torch.arange(4 * 2 * 6 * 6, dtype=torch.float32).view(4, 2, 6, 6) * 0.21)
noise = torch.cos(torch.arange(4 * 2 * 6 * 6, dtype=torch.float32).view(4, 2, 6, 6) * 0.13)
t = torch.tensor([0, 7, 25, 49])
print(extract(sqrt_ac, t, x0.shape).shape, extract(sqrt_ac, t, x0.shape).flatten())
x_t = extract(sqrt_ac, t, x0.shape) * x0 + extract(sqrt_1mac, t, x0.shape) * noise
print(x_t.shape, f"{x_t.abs().mean().item():.4f}")

opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
for step in range(20):
    pred = model(x_t, t)
    loss = F.mse_loss(pred, noise)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.5f}")

with torch.no_grad():
    eps = model(x_t, t)
    coef = extract(betas, t, x_t.shape) / extract(sqrt_1mac, t, x_t.shape)
    mean = extract(1.0 / torch.sqrt(alphas), t, x_t.shape) * (x_t - coef * eps)
    x0_hat = (x_t - extract(sqrt_1mac, t, x_t.shape) * eps) / extract(sqrt_ac, t, x_t.shape)
    print(mean.shape, f"{mean.mean().item():.4f}", f"{x0_hat.clamp(-1, 1).std().item():.4f}")
snr = alphas_cumprod / (1 - alphas_cumprod)
print(snr[:4], torch.log(snr[-1]))
weights = torch.clamp(snr, max=5.0) / snr
print(weights[:5])
ts = torch.tensor([3, 1, 4, 1])
print(torch.gather(betas, 0, ts), betas.index_select(0, ts), betas[ts])
