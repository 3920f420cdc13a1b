# Greeks for a whole option chain with torch.func: vmap(grad(...)) for delta, nested grad for
# gamma, jacrev over (S, sigma), jvp bump-style sensitivities, compared against finite differences.
import math
import torch
from torch.func import vmap, grad, jacrev, jacfwd, hessian, jvp, grad_and_value

dtype = torch.float64
N = torch.distributions.Normal(torch.tensor(0.0, dtype=dtype), torch.tensor(1.0, dtype=dtype))


def call(S, K, T, r, vol):
    d1 = (torch.log(S / K) + (r + vol * vol / 2) * T) / (vol * math.sqrt(T))
    return S * N.cdf(d1) - K * math.exp(-r * T) * N.cdf(d1 - vol * math.sqrt(T))


S = torch.linspace(80, 120, 5, dtype=dtype)
K = torch.tensor(100.0, dtype=dtype)
vol = torch.tensor(0.2, dtype=dtype)
delta = vmap(grad(call), in_dims=(0, None, None, None, None))(S, K, 1.0, 0.01, vol)
gamma = vmap(grad(grad(call)), in_dims=(0, None, None, None, None))(S, K, 1.0, 0.01, vol)
vega = vmap(grad(call, argnums=4), in_dims=(0, None, None, None, None))(S, K, 1.0, 0.01, vol)
print("delta", delta)
print("gamma", gamma)
print("vega ", vega)
h = 1e-4
fd = (call(S + h, K, 1.0, 0.01, vol) - call(S - h, K, 1.0, 0.01, vol)) / (2 * h)
print("fd delta close", torch.allclose(fd, delta, atol=1e-8))
g, v = grad_and_value(call)(torch.tensor(100.0, dtype=dtype), K, 1.0, 0.01, vol)
print(f"grad_and_value {g.item():.6f} {v.item():.6f}")
print("jacrev", jacrev(call, argnums=(0, 4))(torch.tensor(100.0, dtype=dtype), K, 1.0, 0.01, vol))
print("jacfwd diag", jacfwd(call)(S, K, 1.0, 0.01, vol).diagonal())
H = hessian(lambda p: call(p[0], K, 1.0, 0.01, p[1]))(torch.tensor([100.0, 0.2], dtype=dtype))
print("hessian (gamma, vanna; vanna, volga)", H)
out, tangent = jvp(lambda s: call(s, K, 1.0, 0.01, vol), (S,), (torch.ones_like(S),))
print("jvp tangent == delta", torch.allclose(tangent, delta))

# strikes x vols grid with nested vmap
Ks = torch.tensor([90.0, 100.0, 110.0], dtype=dtype)
vols = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=dtype)
grid = vmap(vmap(lambda k, v: call(torch.tensor(100.0, dtype=dtype), k, 1.0, 0.01, v), in_dims=(None, 0)),
            in_dims=(0, None))(Ks, vols)
print("price grid", grid.shape)
print(grid)
vega_grid = vmap(vmap(grad(lambda v, k: call(torch.tensor(100.0, dtype=dtype), k, 1.0, 0.01, v)),
                      in_dims=(0, None)), in_dims=(None, 0))(vols, Ks)
print("vega grid", vega_grid)
try:
    grad(call)(S, K, 1.0, 0.01, vol)
except RuntimeError as e:
    print("RuntimeError", e)
