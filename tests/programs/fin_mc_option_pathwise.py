# Monte Carlo pricing with fixed quasi-random normals (linspace -> Normal icdf), GBM paths,
# pathwise delta/vega by autograd, antithetic variates, Asian and barrier payoffs.
import math
import torch

torch.set_printoptions(precision=5)
dtype = torch.float64
n_paths, n_steps = 512, 24
u = torch.linspace(0.0005, 0.9995, n_paths, dtype=dtype)
z0 = torch.distributions.Normal(0.0, 1.0).icdf(u)
print("z0 dtype", z0.dtype, "mean~0", abs(z0.mean().item()) < 1e-12, "std", f"{z0.std().item():.5f}")
# decorrelate the steps by rolling the sorted normals
Z = torch.stack([torch.roll(z0, shifts=37 * k + 1) for k in range(n_steps)], dim=1)
Z2 = torch.special.ndtri(u)
print("ndtri matches icdf", torch.allclose(Z2, z0))

S0 = torch.tensor(100.0, dtype=dtype, requires_grad=True)
sigma = torch.tensor(0.2, dtype=dtype, requires_grad=True)
r, T, K = 0.02, 1.0, 100.0
dt = T / n_steps


def simulate(S0, sigma, Z):
    incr = (r - 0.5 * sigma ** 2) * dt + sigma * math.sqrt(dt) * Z
    log_paths = torch.log(S0) + torch.cumsum(incr, dim=1)
    return torch.exp(log_paths)


paths = simulate(S0, sigma, Z)
print("paths", paths.shape, paths.dtype, type(paths.grad_fn).__name__)
ST = paths[:, -1]
disc = math.exp(-r * T)
euro = disc * torch.clamp(ST - K, min=0).mean()
print(f"european MC {euro.item():.4f}")
dS0, dsig = torch.autograd.grad(euro, (S0, sigma), retain_graph=True)
print(f"pathwise delta {dS0.item():.4f} vega {dsig.item():.4f}")

asian = disc * torch.relu(paths.mean(dim=1) - K).mean()
print(f"asian MC {asian.item():.4f}")
(adelta,) = torch.autograd.grad(asian, S0, retain_graph=True)
print(f"asian delta {adelta.item():.4f}")

barrier = 120.0
alive = (paths.amax(dim=1) < barrier).to(dtype)
upout = disc * (torch.clamp(ST - K, min=0) * alive).mean()
print(f"up-and-out {upout.item():.4f} knocked {int((1 - alive).sum().item())}")

# antithetic
paths_a = simulate(S0, sigma, -Z)
anti = 0.5 * disc * (torch.clamp(ST - K, min=0) + torch.clamp(paths_a[:, -1] - K, min=0))
print(f"antithetic {anti.mean().item():.4f} stderr {(anti.std() / math.sqrt(n_paths)).item():.4f}")

# digital via smoothed indicator (sigmoid) so it has a pathwise gradient
digital = disc * torch.sigmoid((ST - K) / 0.5).mean()
(ddelta,) = torch.autograd.grad(digital, S0)
print(f"digital {digital.item():.4f} delta {ddelta.item():.5f}")

# running max / min along the path
print("cummax last col", torch.cummax(paths[:4].detach(), dim=1).values[:, -1])
print("cummin idx", torch.cummin(paths[:4].detach(), dim=1).indices[:, -1])
print("log-returns head", torch.diff(torch.log(paths[0, :6].detach())))
