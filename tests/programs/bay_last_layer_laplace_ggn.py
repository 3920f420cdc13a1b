# Last-layer Laplace for a regression MLP: per-sample Jacobians of the output wrt last-layer
# weights with torch.func (vmap + jacrev + functional_call), GGN = J^T J / noise + prior precision,
# then predictive variance, plus the full-network diagonal-GGN variant via autograd.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, jacrev, vmap

torch.set_default_dtype(torch.float64)
x = torch.linspace(-2, 2, 20).unsqueeze(1)
y = torch.sin(2 * x) + 0.1 * torch.cos(7 * x)

feat = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 6), nn.Tanh())
head = nn.Linear(6, 1)
model = nn.Sequential(feat, head)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.6 * torch.cos(torch.arange(p.numel()) * 0.83 + i).reshape(p.shape))

opt = torch.optim.Adam(model.parameters(), lr=0.03)
for step in range(40):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} mse {loss.item():.5f}")

sigma_noise = 0.1
prior_prec = 1.0
head_params = {k: v.detach() for k, v in head.named_parameters()}
with torch.no_grad():
    phi = feat(x)


def head_out(params, f):
    return functional_call(head, params, (f.unsqueeze(0),)).squeeze(0)


J = vmap(jacrev(head_out), in_dims=(None, 0))(head_params, phi)
print({k: tuple(v.shape) for k, v in J.items()})
J_flat = torch.cat([J["weight"].reshape(20, -1), J["bias"].reshape(20, -1)], dim=1)
print("J", J_flat.shape, "equals [phi, 1]", torch.allclose(J_flat, torch.cat([phi, torch.ones(20, 1)], 1)))

ggn = J_flat.T @ J_flat / sigma_noise ** 2 + prior_prec * torch.eye(J_flat.shape[1])
L = torch.linalg.cholesky(ggn)
cov = torch.cholesky_inverse(L)
print("cond", f"{torch.linalg.cond(ggn).item():.2f}")
print("logdet", f"{torch.logdet(ggn).item():.4f}")

xt = torch.linspace(-4, 4, 9).unsqueeze(1)
with torch.no_grad():
    phit = feat(xt)
    mean = head(phit).squeeze(1)
Jt = torch.cat([phit, torch.ones(9, 1)], 1)
f_var = ((Jt @ cov) * Jt).sum(1)
pred_std = (f_var + sigma_noise ** 2).sqrt()
print("mean", mean.round(decimals=3))
print("std ", pred_std.round(decimals=4))
print("grows outside data", (pred_std[0] > pred_std[4]).item(), (pred_std[-1] > pred_std[4]).item())

# diagonal GGN over all parameters from per-sample gradients (scalar outputs)
params = {k: v.detach() for k, v in model.named_parameters()}


def out_single(p, xi):
    return functional_call(model, p, (xi.unsqueeze(0),)).squeeze()


per_sample = vmap(jacrev(out_single), in_dims=(None, 0))(params, x)
diag_ggn = {k: (g ** 2).sum(0) / sigma_noise ** 2 + prior_prec for k, g in per_sample.items()}
print({k: tuple(v.shape) for k, v in diag_ggn.items()})
post_var = torch.cat([1.0 / v.flatten() for v in diag_ggn.values()])
print("post var", post_var.shape, f"{post_var.min().item():.6f}", f"{post_var.max().item():.6f}")

# cross-check one row against a plain autograd loop
out0 = model(x[:1]).squeeze()
g0 = torch.autograd.grad(out0, list(model.parameters()))
print("vmap == loop", all(torch.allclose(a, per_sample[k][0]) for a, k in zip(g0, params)))
