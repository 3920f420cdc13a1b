# MGDA-UB (Sener & Koltun 2018): min-norm convex combination of task gradients — closed form for
# two tasks and a Frank-Wolfe solver for three — using parameters_to_vector of per-task grads.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def min_norm_2(g1, g2):
    # argmin_gamma || gamma g1 + (1 - gamma) g2 ||
    diff = g1 - g2
    gamma = torch.dot(g2 - g1, g2) / diff.dot(diff).clamp_min(1e-12)
    return gamma.clamp(0.0, 1.0)


def frank_wolfe(grads, iters=20):
    G = torch.stack(grads)
    M = G @ G.T
    n = len(grads)
    w = torch.full((n,), 1.0 / n)
    for _ in range(iters):
        t = torch.argmin(M @ w)
        v = F.one_hot(t, n).to(w.dtype)
        d = v - w
        denom = d @ M @ d
        if denom <= 1e-12:
            break
        step = torch.clamp(-(w @ M @ d) / denom, 0.0, 1.0)
        w = w + step * d
    return w


trunk = nn.Sequential(nn.Linear(3, 5), nn.Softplus(), nn.Linear(5, 5))
heads = nn.ModuleList([nn.Linear(5, 1) for _ in range(3)])
with torch.no_grad():
    for i, p in enumerate(list(trunk.parameters()) + list(heads.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.37 + i).reshape(p.shape) * 0.5)

x = torch.stack([torch.linspace(0, 1, 16), torch.linspace(1, -1, 16), torch.cos(torch.arange(16.0))], 1)
targets = [x.sum(1), x[:, 0] * x[:, 1], -x[:, 2]]

print("vector size:", parameters_to_vector(trunk.parameters()).numel())
lr = 0.2
for step in range(15):
    h = trunk(x)
    losses = [F.mse_loss(hd(h).squeeze(-1), y) for hd, y in zip(heads, targets)]
    grads = []
    for l in losses:
        trunk.zero_grad()
        l.backward(retain_graph=True)
        grads.append(parameters_to_vector([p.grad for p in trunk.parameters()]).clone())
    gamma = min_norm_2(grads[0], grads[1])
    w = frank_wolfe(grads)
    combined = sum(wi * g for wi, g in zip(w, grads))
    with torch.no_grad():
        theta = parameters_to_vector(trunk.parameters())
        vector_to_parameters(theta - lr * combined, trunk.parameters())
        for hd, l in zip(heads, losses):
            gs = torch.autograd.grad(l, list(hd.parameters()), retain_graph=True)
            for p, g in zip(hd.parameters(), gs):
                p -= lr * g
    if step % 3 == 0:
        print(f"step {step:2d} losses {[round(l.item(), 4) for l in losses]} gamma {gamma.item():.4f} "
              f"fw {[round(v, 4) for v in w.tolist()]} |d| {combined.norm().item():.5f}")

print("weights sum to one:", abs(w.sum().item() - 1) < 1e-5)
try:
    vector_to_parameters(torch.zeros(3), trunk.parameters())
except Exception as e:
    print(type(e).__name__, e)
try:
    parameters_to_vector(torch.zeros(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    vector_to_parameters([1.0, 2.0], trunk.parameters())
except Exception as e:
    print(type(e).__name__, e)
