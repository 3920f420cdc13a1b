# JEM (Grathwohl et al.): a classifier's logits define E(x) = -logsumexp(f(x)), p(y|x) = softmax;
# SGLD on x with torch.func.grad(has_aux=True), the joint loss CE + (E(pos) - E(neg)), and the
# per-class energies -f(x)[y] with gather.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import grad, functional_call

torch.set_printoptions(precision=4, sci_mode=False)

clf = nn.Sequential(nn.Linear(2, 16), nn.ELU(alpha=0.5), nn.Linear(16, 16), nn.LogSigmoid(), nn.Linear(16, 3))
with torch.no_grad():
    for i, p in enumerate(clf.parameters()):
        p.copy_(0.6 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + i).view_as(p))

ang = torch.arange(12.0) * (2 * torch.pi / 12)
x = torch.stack([torch.cos(ang), torch.sin(ang)], 1) * 1.5
y = torch.arange(12) % 3


def energy(model, x):
    return -torch.logsumexp(model(x), dim=1)


params = {k: v.detach() for k, v in clf.named_parameters()}


def total_energy(xs):
    e = -torch.logsumexp(functional_call(clf, params, (xs,)), dim=1)
    return e.sum(), e.detach()


dx, e_aux = grad(total_energy, has_aux=True)(x)
print(dx.shape, e_aux[:3], dx[:2])
xr = x.clone().requires_grad_()
(dx_ref,) = torch.autograd.grad(energy(clf, xr).sum(), xr)
print("func.grad == autograd.grad:", torch.allclose(dx, dx_ref, atol=1e-6))


def sgld(x, steps=8, lr=0.5, std=0.01):
    x = x.detach().clone()
    for k in range(steps):
        g, _ = grad(total_energy, has_aux=True)(x)
        x = x - lr * g + std * torch.cos(torch.arange(x.numel(), dtype=x.dtype).view_as(x) * 3.1 + k)
    return x


opt = torch.optim.SGD(clf.parameters(), lr=0.05, momentum=0.9, nesterov=True)
for it in range(8):
    params = {k: v.detach() for k, v in clf.named_parameters()}
    neg = sgld(torch.flip(x, [0]) * 0.5)
    logits = clf(x)
    ce = F.cross_entropy(logits, y)
    gen = energy(clf, x).mean() - energy(clf, neg).mean()
    loss = ce + gen
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == y).float().mean()
    print(it, f"ce={ce.item():.4f} gen={gen.item():.4f} acc={acc.item():.3f}")

with torch.no_grad():
    logits = clf(x)
    class_energy = -logits.gather(1, y.unsqueeze(1)).squeeze(1)
    print(class_energy[:4], energy(clf, x)[:4])
    print(F.softmax(logits, 1)[:2], torch.logsumexp(logits, 1, keepdim=True).shape)
