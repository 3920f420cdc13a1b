# PGD attacks (Madry et al.) with an L-inf and an L2 threat model: a delta tensor with
# requires_grad, projected steps under torch.no_grad(), delta.grad.zero_(), clamp to the eps ball.
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(12, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + 0.5 * i).view_as(p) * 3)
    model[0].bias.copy_(-0.5 * model[0].weight.sum(dim=1))
model.eval()
for p in model.parameters():
    p.requires_grad_(False)

X = torch.stack([torch.linspace(0, 1, 8), torch.cos(torch.linspace(0, 3, 8)) * 0.5 + 0.5,
                 torch.linspace(1, 0, 8) ** 2, torch.sin(torch.linspace(0, 5, 8)) * 0.5 + 0.5], dim=1)
y = model(X).argmax(dim=1)
print("labels", y.tolist())


def pgd_linf(model, x, y, eps, alpha, steps):
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        loss.backward()
        with torch.no_grad():
            delta += alpha * delta.grad.sign()
            delta.clamp_(-eps, eps)
            delta.copy_((x + delta).clamp(0, 1) - x)
        delta.grad.zero_()
    return delta.detach()


def pgd_l2(model, x, y, eps, alpha, steps):
    delta = torch.zeros_like(x).requires_grad_()
    for _ in range(steps):
        loss = nn.CrossEntropyLoss()(model(x + delta), y)
        grad, = torch.autograd.grad(loss, [delta])
        with torch.no_grad():
            gnorm = grad.view(grad.shape[0], -1).norm(p=2, dim=1).clamp_min(1e-12)
            delta.add_(alpha * grad / gnorm.view(-1, 1))
            dnorm = delta.view(delta.shape[0], -1).norm(dim=1)
            factor = torch.minimum(torch.ones_like(dnorm), eps / (dnorm + 1e-12))
            delta.mul_(factor.view(-1, 1))
            delta.data = (x + delta).clamp(0, 1) - x
    return delta.detach()


for eps in [0.05, 0.1, 0.3]:
    d = pgd_linf(model, X, y, eps, alpha=eps / 4, steps=10)
    with torch.no_grad():
        acc = (model(X + d).argmax(1) == y).float().mean().item()
        loss = F.cross_entropy(model(X + d), y).item()
    print(f"linf eps={eps} acc={acc:.3f} loss={loss:.4f} max|d|={d.abs().max().item():.4f}")

for eps in [0.1, 0.5]:
    d = pgd_l2(model, X, y, eps, alpha=eps / 3, steps=10)
    norms = d.norm(dim=1)
    with torch.no_grad():
        acc = (model(X + d).argmax(1) == y).float().mean().item()
    print(f"l2 eps={eps} acc={acc:.3f} max norm={norms.max().item():.4f}")
    print(torch.round(norms, decimals=3))

d = pgd_linf(model, X[:2], y[:2], 0.1, 0.025, 3)
print(d.requires_grad, d.grad, d.shape)
print(torch.round(d, decimals=3))
print(all(p.grad is None for p in model.parameters()))
