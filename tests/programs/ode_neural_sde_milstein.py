# A neural SDE integrated by hand (torchsde-free): Euler-Maruyama and Milstein schemes with
# fixed Brownian increments from a sin table, the Milstein correction sigma * dsigma/dx from
# torch.autograd.grad(create_graph=True), a diagonal-noise check against is_grads_batched, and
# training drift / diffusion nets to match moments of a geometric Brownian motion.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class SDE(nn.Module):
    def __init__(self):
        super().__init__()
        self.drift = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
        self.diff = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1), nn.Softplus())

    def f(self, x):
        return self.drift(x)

    def g(self, x):
        return self.diff(x) * x


sde = SDE()
with torch.no_grad():
    for i, p in enumerate(sde.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).reshape(p.shape))

n_paths, n_steps, T = 32, 20, 1.0
dt = T / n_steps
dW = math.sqrt(dt) * math.sqrt(2.0) * torch.sin(
    torch.arange(n_paths * n_steps, dtype=torch.float64).reshape(n_steps, n_paths, 1) * 2.399963 + 0.7)
print("increments: mean", f"{dW.mean().item():.4f}", "var/dt", f"{dW.var().item() / dt:.4f}")


def simulate(x0, scheme):
    x = x0
    for k in range(n_steps):
        if scheme == "milstein":
            with torch.enable_grad():
                xg = x if x.requires_grad else x.detach().requires_grad_(True)
                g = sde.g(xg)
                (dg,) = torch.autograd.grad(g.sum(), xg, create_graph=True)
            x = x + sde.f(x) * dt + g * dW[k] + 0.5 * g * dg * (dW[k] ** 2 - dt)
        else:
            x = x + sde.f(x) * dt + sde.g(x) * dW[k]
    return x


x0 = torch.ones(n_paths, 1)
em = simulate(x0, "em")
mil = simulate(x0, "milstein")
print(f"EM mean {em.mean().item():.5f} std {em.std().item():.5f}")
print(f"Milstein mean {mil.mean().item():.5f} std {mil.std().item():.5f}")
print("scheme gap small:", (em - mil).abs().max().item() < 0.1)

# diagonal noise: dg/dx per path, from one batched grad call vs the loop
xs = torch.linspace(0.5, 1.5, 4).unsqueeze(1).requires_grad_(True)
g = sde.g(xs)
eye = torch.eye(4).unsqueeze(-1)
(jac,) = torch.autograd.grad(g, xs, eye, is_grads_batched=True, retain_graph=True)
diag = torch.diagonal(jac.squeeze(-1))
(loop,) = torch.autograd.grad(g.sum(), xs)
print("dg/dx:", diag.detach().numpy().round(6).tolist(), "same:", torch.allclose(diag, loop.squeeze(1)))

# fit to GBM moments: E[X_T] = exp(mu T), Var[X_T] = exp(2 mu T)(exp(s^2 T) - 1)
mu, s = 0.3, 0.4
target_mean = math.exp(mu * T)
target_var = math.exp(2 * mu * T) * (math.exp(s ** 2 * T) - 1)
opt = torch.optim.Adam(sde.parameters(), lr=2e-2)
for it in range(15):
    opt.zero_grad()
    xT = simulate(x0, "milstein")
    loss = (xT.mean() - target_mean) ** 2 + (xT.var() - target_var) ** 2
    loss.backward()
    opt.step()
    if it % 5 == 0 or it == 14:
        print(f"it {it:2d} loss {loss.item():.6f} mean {xT.mean().item():.4f} var {xT.var().item():.4f}")
print("diffusion grad norm:", f"{sde.diff[0].weight.grad.norm().item():.6f}")
