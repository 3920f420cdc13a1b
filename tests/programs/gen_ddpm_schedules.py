# DDPM noise schedules as in the "annotated diffusion" tutorial: linear / cosine / quadratic /
# sigmoid beta schedules, alphas_cumprod via torch.cumprod, F.pad of the shifted cumprod,
# the extract() helper (gather at timesteps t, reshape to (-1, 1, 1, 1)), q_sample and the
# posterior variance, all with deterministic "noise".
import math
import torch
import torch.nn.functional as F


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * torch.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)


def linear_beta_schedule(timesteps):
    return torch.linspace(0.0001, 0.02, timesteps)


def quadratic_beta_schedule(timesteps):
    return torch.linspace(0.0001 ** 0.5, 0.02 ** 0.5, timesteps) ** 2


def sigmoid_beta_schedule(timesteps):
    betas = torch.linspace(-6, 6, timesteps)
    return torch.sigmoid(betas) * (0.02 - 0.0001) + 0.0001


timesteps = 10
for fn in (linear_beta_schedule, cosine_beta_schedule, quadratic_beta_schedule, sigmoid_beta_schedule):
    b = fn(timesteps)
    print(fn.__name__, b.dtype, b.shape, b)

betas = cosine_beta_schedule(timesteps)
alphas = 1. - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1. - alphas_cumprod)
posterior_variance = betas * (1. - alphas_cumprod_prev) / (1. - alphas_cumprod)
print(alphas_cumprod)
print(alphas_cumprod_prev)
print(posterior_variance)
print(torch.log(posterior_variance.clamp(min=1e-20)))
print(sqrt_recip_alphas[:3], sqrt_one_minus_alphas_cumprod[-3:])
snr = alphas_cumprod / (1 - alphas_cumprod)
print(snr.log10())


def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


x_start = torch.sin(torch.arange(3 * 1 * 4 * 4, dtype=torch.float32) * 0.4).view(3, 1, 4, 4)
noise = torch.cos(torch.arange(3 * 16, dtype=torch.float32) * 1.3).view(3, 1, 4, 4)
t = torch.tensor([0, 4, 9])
coef = extract(sqrt_alphas_cumprod, t, x_start.shape)
print(coef.shape, coef.view(-1))
print(sqrt_alphas_cumprod[t].view(-1, 1, 1, 1).flatten())
x_noisy = extract(sqrt_alphas_cumprod, t, x_start.shape) * x_start + \
    extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise
print(x_noisy[:, 0, 0])
print(x_noisy.std(dim=(1, 2, 3)), x_noisy.mean(dim=[1, 2, 3]))

# predicting x0 back from the noise (the "predict_start_from_noise" step)
x0_hat = (x_noisy - extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise) / coef
print(torch.allclose(x0_hat, x_start, atol=1e-5), (x0_hat - x_start).abs().max() < 1e-4)

# timesteps sampled "uniformly" without RNG, long dtype, and wrong-dtype gather errors
t2 = torch.arange(0, 6) % timesteps
print(t2, t2.dtype, alphas_cumprod.gather(0, t2))
try:
    alphas_cumprod.gather(0, t2.float())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    alphas_cumprod[torch.tensor([10])]
except IndexError as e:
    print(type(e).__name__, e)
print(torch.linspace(0, 1, 0), torch.linspace(3, 3, 1), torch.cumprod(torch.tensor([]), 0))
print(torch.cumprod(torch.tensor([[1, 2], [3, 4]]), dim=1), torch.cumprod(torch.tensor([1, 2, 3], dtype=torch.int32), 0).dtype)
print(math.log(10000), torch.tensor(timesteps) * 1.0)
