# Memory-saving backprop through a long differentiable rollout (cloth/particle simulators,
# "gradient checkpointing for differentiable physics"): chunks of the time loop wrapped in
# torch.utils.checkpoint.checkpoint(..., use_reentrant=False), compared with plain backprop, plus
# truncated BPTT via .detach() between windows, as in the differentiable-simulation tutorials.
import torch
from torch.utils.checkpoint import checkpoint

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=6)

n, dt = 5, 0.01
k = torch.tensor(20.0, requires_grad=True)       # spring stiffness (learned)
c = torch.tensor(0.3, requires_grad=True)        # damping (learned)
x0 = torch.linspace(0, 1, n) + 0.05 * torch.sin(torch.arange(n) * 1.3)
v0 = torch.zeros(n)


def step(x, v, k, c):
    stretch = x[1:] - x[:-1] - 0.25
    f = torch.zeros_like(x)
    f = f + torch.cat([k * stretch, torch.zeros(1)]) - torch.cat([torch.zeros(1), k * stretch])
    f = f - c * v
    v = v + dt * f
    x = x + dt * v
    return x, v


def chunk(x, v, k, c, m=25):
    for _ in range(m):
        x, v = step(x, v, k, c)
    return x, v


def rollout(k, c, use_ckpt, chunks=8):
    x, v = x0, v0
    for _ in range(chunks):
        if use_ckpt:
            x, v = checkpoint(chunk, x, v, k, c, use_reentrant=False)
        else:
            x, v = chunk(x, v, k, c)
    return x, v


target = torch.linspace(0, 1.2, n)
results = {}
for use_ckpt in (False, True):
    k.grad = c.grad = None
    xT, vT = rollout(k, c, use_ckpt)
    loss = ((xT - target) ** 2).sum() + 0.1 * (vT ** 2).sum()
    loss.backward()
    results[use_ckpt] = (loss.item(), k.grad.clone(), c.grad.clone())
    print(f"checkpoint={use_ckpt}: loss {loss.item():.8f} dk {k.grad.item():.8f} dc {c.grad.item():.8f}")
    print("  grad_fn", type(xT.grad_fn).__name__)
print("identical grads:", torch.allclose(results[False][1], results[True][1]) and torch.allclose(results[False][2], results[True][2]))

# reentrant checkpoint (the old default) needs at least one input that requires grad
xT, _ = checkpoint(chunk, x0.clone().requires_grad_(True), v0, k, c, use_reentrant=True)
print("reentrant", xT.requires_grad, xT.shape)

# truncated backprop through time: detach the state every window
opt = torch.optim.Adam([k, c], lr=0.5)
for epoch in range(6):
    x, v = x0, v0
    total = 0.0
    for w in range(4):
        opt.zero_grad()
        x, v = chunk(x.detach(), v.detach(), k, c, m=50)
        loss = ((x - target) ** 2).sum()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} tbptt loss {total:.5f} k {k.item():.3f} c {c.item():.4f}")
print(x.requires_grad, x.detach().requires_grad, x.grad_fn.name())
