# k-diffusion / EDM-style sampling: Karras sigma schedule (sigma^(1/rho) interpolation), a
# c_skip/c_out/c_in preconditioned denoiser, Euler and Heun samplers under torch.no_grad, plus
# v-prediction targets and conversions (v <-> eps <-> x0) from diffusers-style schedulers.
import math
import torch
import torch.nn as nn


def get_sigmas_karras(n, sigma_min, sigma_max, rho=7.0):
    ramp = torch.linspace(0, 1, n)
    min_inv_rho = sigma_min ** (1 / rho)
    max_inv_rho = sigma_max ** (1 / rho)
    sigmas = (max_inv_rho + ramp * (min_inv_rho - max_inv_rho)) ** rho
    return torch.cat([sigmas, sigmas.new_zeros([1])])


sigmas = get_sigmas_karras(8, 0.002, 80.0)
print(sigmas.round(decimals=4))


class Denoiser(nn.Module):
    def __init__(self, sigma_data=0.5):
        super().__init__()
        self.sigma_data = sigma_data
        self.net = nn.Sequential(nn.Linear(3, 16), nn.SiLU(), nn.Linear(16, 16), nn.SiLU(), nn.Linear(16, 2))

    def forward(self, x, sigma):
        sd = self.sigma_data
        c_skip = sd ** 2 / (sigma ** 2 + sd ** 2)
        c_out = sigma * sd / (sigma ** 2 + sd ** 2).sqrt()
        c_in = 1 / (sigma ** 2 + sd ** 2).sqrt()
        c_noise = sigma.log() / 4
        h = torch.cat([x * c_in[:, None], c_noise[:, None]], dim=1)
        return c_skip[:, None] * x + c_out[:, None] * self.net(h)


model = Denoiser()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).reshape(p.shape) * 0.5)

# EDM training loss with lognormal-ish deterministic sigmas
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
ang = torch.arange(32.0) * (2 * math.pi / 32)
data = torch.stack([ang.cos(), (2 * ang).sin()], 1) * 0.5
for step in range(10):
    log_sigma = -1.2 + 1.2 * torch.sin(torch.arange(32.0) * 0.7 + step)
    sigma = log_sigma.exp()
    n = torch.stack([torch.sin(ang * 3 + step), torch.cos(ang * 5 - step)], 1)
    denoised = model(data + n * sigma[:, None], sigma)
    weight = (sigma ** 2 + 0.25) / (sigma * 0.5) ** 2
    loss = (weight[:, None] * (denoised - data) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.4f}")


def to_d(x, sigma, denoised):
    return (x - denoised) / sigma


@torch.no_grad()
def sample_euler(x, sigmas):
    for i in range(len(sigmas) - 1):
        s = sigmas[i] * x.new_ones([x.shape[0]])
        d = to_d(x, sigmas[i], model(x, s))
        x = x + d * (sigmas[i + 1] - sigmas[i])
    return x


@torch.no_grad()
def sample_heun(x, sigmas):
    for i in range(len(sigmas) - 1):
        s_in = x.new_ones([x.shape[0]])
        d = to_d(x, sigmas[i], model(x, sigmas[i] * s_in))
        dt = sigmas[i + 1] - sigmas[i]
        if sigmas[i + 1] == 0:
            x = x + d * dt
        else:
            x_2 = x + d * dt
            d_2 = to_d(x_2, sigmas[i + 1], model(x_2, sigmas[i + 1] * s_in))
            x = x + (d + d_2) / 2 * dt
    return x


x_T = torch.stack([torch.linspace(-1, 1, 6), torch.cos(torch.arange(6.0))], 1) * sigmas[0]
print("euler", sample_euler(x_T, sigmas).round(decimals=3))
print("heun", sample_heun(x_T, sigmas).round(decimals=3))

# v-prediction conversions
alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 1000, dtype=torch.float64), 0)
t = torch.tensor([0, 499, 999])
a = alphas_cumprod[t].sqrt().float()[:, None]
s = (1 - alphas_cumprod[t]).sqrt().float()[:, None]
x0 = torch.tensor([[0.5, -0.25], [1.0, 0.0], [-0.75, 0.3]])
eps = torch.tensor([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]])
x_t = a * x0 + s * eps
v = a * eps - s * x0
print(v, torch.allclose(a * x_t - s * v, x0, atol=1e-6), torch.allclose(s * x_t + a * v, eps, atol=1e-6))
snr = (a / s) ** 2
print(snr.squeeze(1), (snr / (snr + 1)).squeeze(1))
