# Full per-point Hessians of a coordinate MLP with autograd.grad(is_grads_batched=True):
# one batched vector-Jacobian product per input dimension instead of a Python loop, the
# Laplacian as the Hessian trace, and a Hessian-Frobenius smoothness penalty in training.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)

net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.57 + 0.9 * i).view_as(p) * 0.8)

s = torch.linspace(-1, 1, 4)
pts = torch.stack(torch.meshgrid(s, s, indexing="xy"), dim=-1).reshape(-1, 2)
N, D = pts.shape
eye = torch.eye(D).unsqueeze(1).expand(D, N, D)  # (D, N, D) batch of cotangents


def hessians(x):
    f = net(x)
    (g,) = torch.autograd.grad(f, x, torch.ones_like(f), create_graph=True)
    (H,) = torch.autograd.grad(g, x, eye, create_graph=True, is_grads_batched=True)
    return f, g, H.permute(1, 0, 2)  # (N, D, D)


x = pts.clone().requires_grad_(True)
f, g, H = hessians(x)
print("f", tuple(f.shape), "grad", tuple(g.shape), "hessian", tuple(H.shape))
print("symmetric:", torch.allclose(H, H.transpose(1, 2)))
print("H[0]", H[0].detach().round(decimals=5))
lap = H.diagonal(dim1=1, dim2=2).sum(-1)
print("laplacian", lap.detach().round(decimals=4))

loop = torch.stack([torch.autograd.grad(g[:, k].sum(), x, retain_graph=True)[0] for k in range(D)], 1)
print("matches loop:", torch.allclose(loop, H))
jac = torch.autograd.grad(f, x, torch.eye(N).unsqueeze(-1), is_grads_batched=True, retain_graph=True)[0]
print("batched jacobian", tuple(jac.shape), "diag blocks == grad:", torch.allclose(jac[torch.arange(N), torch.arange(N)], g))

target = torch.sin(2 * pts[:, :1]) * pts[:, 1:]
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(12):
    x = pts.clone().requires_grad_(True)
    f, g, H = hessians(x)
    loss = (f - target).pow(2).mean() + 1e-3 * H.pow(2).sum((1, 2)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0 or step == 11:
        print(f"step {step:2d} loss {loss.item():.5f} |H|_F {H.detach().pow(2).sum((1, 2)).sqrt().mean().item():.4f}")
