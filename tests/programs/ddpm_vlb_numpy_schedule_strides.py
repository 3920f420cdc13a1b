# guided-diffusion's GaussianDiffusion bookkeeping: numpy float64 schedules, _extract_into_tensor
# (torch.from_numpy(arr)[t].float() + [..., None] + expand), q_posterior mean/variance, normal_kl,
# discretized_gaussian_log_likelihood with the tanh CDF approximation, mean_flat, learned-range
# variance (frac interpolation of log variances), and the hybrid L_simple + lambda * L_vlb loss.
import math
import numpy as np
import torch
import torch.nn as nn


def get_named_beta_schedule(name, n):
    if name == "linear":
        scale = 1000 / n
        return np.linspace(scale * 0.0001, scale * 0.02, n, dtype=np.float64)
    fn = lambda t: math.cos((t + 0.008) / 1.008 * math.pi / 2) ** 2
    return np.array([min(1 - fn((i + 1) / n) / fn(i / n), 0.999) for i in range(n)])


def _extract_into_tensor(arr, timesteps, broadcast_shape):
    res = torch.from_numpy(arr).to(device=timesteps.device)[timesteps].float()
    while len(res.shape) < len(broadcast_shape):
        res = res[..., None]
    return res.expand(broadcast_shape)


def mean_flat(tensor):
    return tensor.mean(dim=list(range(1, len(tensor.shape))))


def normal_kl(mean1, logvar1, mean2, logvar2):
    return 0.5 * (-1.0 + logvar2 - logvar1 + torch.exp(logvar1 - logvar2)
                  + ((mean1 - mean2) ** 2) * torch.exp(-logvar2))


def approx_standard_normal_cdf(x):
    return 0.5 * (1.0 + torch.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * torch.pow(x, 3))))


def discretized_gaussian_log_likelihood(x, *, means, log_scales):
    centered_x = x - means
    inv_stdv = torch.exp(-log_scales)
    cdf_plus = approx_standard_normal_cdf(inv_stdv * (centered_x + 1.0 / 255.0))
    cdf_min = approx_standard_normal_cdf(inv_stdv * (centered_x - 1.0 / 255.0))
    log_cdf_plus = torch.log(cdf_plus.clamp(min=1e-12))
    log_one_minus_cdf_min = torch.log((1.0 - cdf_min).clamp(min=1e-12))
    cdf_delta = cdf_plus - cdf_min
    return torch.where(x < -0.999, log_cdf_plus,
                       torch.where(x > 0.999, log_one_minus_cdf_min, torch.log(cdf_delta.clamp(min=1e-12))))


T = 50
betas = get_named_beta_schedule("cosine", T)
alphas_cumprod = np.cumprod(1.0 - betas, axis=0)
alphas_cumprod_prev = np.append(1.0, alphas_cumprod[:-1])
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
posterior_log_variance_clipped = np.log(np.append(posterior_variance[1], posterior_variance[1:]))
posterior_mean_coef1 = betas * np.sqrt(alphas_cumprod_prev) / (1.0 - alphas_cumprod)
posterior_mean_coef2 = (1.0 - alphas_cumprod_prev) * np.sqrt(1.0 - betas) / (1.0 - alphas_cumprod)
print(betas[:3].round(6), get_named_beta_schedule("linear", T)[-1])

net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.GroupNorm(4, 8), nn.SiLU(), nn.Conv2d(8, 2, 3, padding=1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + i).reshape(p.shape) * 0.3)
opt = torch.optim.Adam(net.parameters(), lr=3e-3)

x_start = (torch.cos(torch.arange(3 * 36, dtype=torch.float32) * 0.3) * 1.1).clamp(-1, 1).reshape(3, 1, 6, 6)
for step in range(6):
    t = torch.tensor([0, 17 + step, T - 1 - step])
    noise = torch.sin(torch.arange(x_start.numel(), dtype=torch.float32) * 2.7 + step).reshape(x_start.shape)
    shape = x_start.shape
    x_t = _extract_into_tensor(np.sqrt(alphas_cumprod), t, shape) * x_start + \
        _extract_into_tensor(np.sqrt(1.0 - alphas_cumprod), t, shape) * noise
    model_output, model_var_values = torch.split(net(x_t), 1, dim=1)
    min_log = _extract_into_tensor(posterior_log_variance_clipped, t, shape)
    max_log = _extract_into_tensor(np.log(betas), t, shape)
    frac = (model_var_values + 1) / 2
    model_log_variance = frac * max_log + (1 - frac) * min_log
    pred_xstart = (_extract_into_tensor(np.sqrt(1.0 / alphas_cumprod), t, shape) * x_t
                   - _extract_into_tensor(np.sqrt(1.0 / alphas_cumprod - 1), t, shape) * model_output.detach())
    model_mean = (_extract_into_tensor(posterior_mean_coef1, t, shape) * pred_xstart
                  + _extract_into_tensor(posterior_mean_coef2, t, shape) * x_t)
    true_mean = (_extract_into_tensor(posterior_mean_coef1, t, shape) * x_start
                 + _extract_into_tensor(posterior_mean_coef2, t, shape) * x_t)
    kl = mean_flat(normal_kl(true_mean, min_log, model_mean, model_log_variance)) / np.log(2.0)
    nll = -discretized_gaussian_log_likelihood(x_start, means=model_mean, log_scales=0.5 * model_log_variance)
    nll = mean_flat(nll) / np.log(2.0)
    vb = torch.where((t == 0), nll, kl)
    mse = mean_flat((noise - model_output) ** 2)
    loss = (mse + vb * T / 1000.0).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} mse {[round(v, 4) for v in mse.tolist()]} vb {[round(v, 4) for v in vb.tolist()]} loss {loss.item():.4f}")
print(min_log.shape, min_log.stride(), min_log.dtype, model_log_variance.grad_fn.__class__.__name__)
