# Aligned-MTL (eigendecomposition of the task-gradient Gram matrix) and CAGrad (conflict-averse
# direction, inner optimization of simplex weights with softmax + Adam) on flat task gradients,
# printing task weights, condition numbers and the merged gradient's cosine with each task.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
trunk = nn.Sequential(nn.Linear(3, 6), nn.SiLU(), nn.Linear(6, 6))
heads = nn.ModuleList([nn.Linear(6, 1) for _ in range(3)])
with torch.no_grad():
    for i, p in enumerate(list(trunk.parameters()) + list(heads.parameters())):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.61 + i).reshape(p.shape) * 0.5)

x = torch.stack([torch.linspace(-1, 1, 12), torch.cos(torch.arange(12.0)), torch.linspace(0, 2, 12) ** 2], 1)
ys = [x[:, 0] * x[:, 1], torch.sin(x[:, 2]), -x.sum(1)]
shared = list(trunk.parameters())


def task_gradients():
    h = trunk(x)
    losses = torch.stack([F.mse_loss(hd(h).squeeze(1), y) for hd, y in zip(heads, ys)])
    G = torch.stack([torch.cat([g.flatten() for g in torch.autograd.grad(l, shared, retain_graph=True)])
                     for l in losses])
    return losses, G


def aligned_mtl(G):
    M = G @ G.T
    lam, V = torch.linalg.eigh(M)
    keep = lam > 1e-10 * lam.max()
    lam, V = lam[keep], V[:, keep]
    sigma_min = lam.min().sqrt()
    B = sigma_min * V @ torch.diag(lam.rsqrt()) @ V.T
    w = B.sum(1)
    return w, (lam.max() / lam.min()).item()


def cagrad(G, c=0.5, steps=30):
    GG = G @ G.T
    g0_norm = (GG.mean() + 1e-8).sqrt()
    logits = torch.zeros(G.shape[0], requires_grad=True)
    opt = torch.optim.Adam([logits], lr=0.1)
    for _ in range(steps):
        w = logits.softmax(0)
        gw_g0 = (w @ GG).mean()
        gw_norm = (w @ GG @ w + 1e-8).sqrt()
        obj = gw_g0 + c * g0_norm * gw_norm
        opt.zero_grad()
        obj.backward()
        opt.step()
    w = logits.softmax(0).detach()
    gw = w @ G
    lmbda = c * g0_norm / (gw.norm() + 1e-8)
    return (G.mean(0) + lmbda * gw) / (1 + c), w


opt = torch.optim.SGD(list(trunk.parameters()) + list(heads.parameters()), lr=0.1)
for step in range(10):
    losses, G = task_gradients()
    w_al, cond = aligned_mtl(G)
    d, w_ca = cagrad(G)
    cos = F.cosine_similarity(G, d.unsqueeze(0), dim=1)
    opt.zero_grad()
    losses.sum().backward()
    offset = 0
    for p in shared:
        p.grad = d[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
    opt.step()
    if step % 3 == 0 or step == 9:
        print(f"step {step} losses {[round(v, 4) for v in losses.tolist()]} cond {cond:.3f}")
        print("   aligned w", [round(v, 4) for v in w_al.tolist()], "cagrad w", [round(v, 4) for v in w_ca.tolist()])
        print("   cos(task, d)", [round(v, 4) for v in cos.tolist()], f"|d| {d.norm().item():.5f}")

print(torch.linalg.matrix_rank(G).item(), G.shape)
print("svdvals:", torch.linalg.svdvals(G).round(decimals=4))
