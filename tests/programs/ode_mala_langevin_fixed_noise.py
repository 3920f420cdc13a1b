# Unadjusted Langevin (ULA) vs Metropolis-adjusted Langevin (MALA) on a banana-shaped density,
# scores from torch.autograd.grad of log p, the MALA acceptance ratio with the asymmetric
# proposal densities, and deterministic noise / uniforms from Weyl sequences instead of randn.
import math
import torch

torch.set_default_dtype(torch.float64)


def log_p(x):
    # banana: x1 ~ N(0, 2^2), x2 | x1 ~ N(0.5 x1^2 - 1, 1)
    a, b = x[..., 0], x[..., 1]
    return -0.5 * (a / 2) ** 2 - 0.5 * (b - 0.5 * a ** 2 + 1) ** 2


def score(x):
    x = x.detach().requires_grad_(True)
    lp = log_p(x)
    (g,) = torch.autograd.grad(lp.sum(), x)
    return lp.detach(), g


def det_normal(step, shape):
    """Roughly unit-variance 'noise' from a Weyl sequence pushed through sin."""
    n = math.prod(shape)
    k = torch.arange(n) + 1.0 + step * n
    return math.sqrt(2.0) * torch.sin(2 * math.pi * torch.frac(k * 0.6180339887 + 0.1)).reshape(shape)


def det_uniform(step, n):
    k = torch.arange(n) + 0.5 + step * n
    return torch.frac(k * 0.7548776662 + 0.05)


def log_q(x_to, x_from, g_from, eps):
    mean = x_from + 0.5 * eps ** 2 * g_from
    return -((x_to - mean) ** 2).sum(-1) / (2 * eps ** 2)


n_chains, eps = 64, 0.6
x0 = torch.stack([torch.linspace(-3, 3, n_chains), torch.cos(torch.arange(n_chains) * 1.0)], 1)
print("noise mean/std:", [round(v, 3) + 0.0 for v in (det_normal(0, (4096,)).mean().item(), det_normal(0, (4096,)).std().item())])

# ULA
x = x0.clone()
for t in range(60):
    _, g = score(x)
    x = x + 0.5 * eps ** 2 * g + eps * det_normal(t, x.shape)
print("ULA  mean", [round(v, 2) for v in x.mean(0).tolist()], "logp", round(log_p(x).mean().item(), 2))

# MALA
x = x0.clone()
lp, g = score(x)
accepted = torch.zeros(n_chains)
for t in range(60):
    prop = x + 0.5 * eps ** 2 * g + eps * det_normal(t, x.shape)
    lp_prop, g_prop = score(prop)
    log_alpha = lp_prop - lp + log_q(x, prop, g_prop, eps) - log_q(prop, x, g, eps)
    accept = torch.log(det_uniform(t, n_chains)) < log_alpha
    x = torch.where(accept.unsqueeze(1), prop, x)
    lp = torch.where(accept, lp_prop, lp)
    g = torch.where(accept.unsqueeze(1), g_prop, g)
    accepted += accept.float()
    if t % 15 == 14:
        print(f"t={t + 1} acceptance {accepted.mean().item() / (t + 1):.3f} logp {lp.mean().item():.3f}")
print("MALA mean", [round(v, 2) for v in x.mean(0).tolist()], "requires_grad", x.requires_grad)
print("acceptance per chain (first 8):", accepted[:8].int().tolist())

# the score is exact: compare with the analytic gradient
_, g = score(x0[:3])
a, b = x0[:3, 0], x0[:3, 1]
r = b - 0.5 * a ** 2 + 1
print("score matches:", torch.allclose(g, torch.stack([-a / 4 + r * a, -r], 1), atol=1e-5))
