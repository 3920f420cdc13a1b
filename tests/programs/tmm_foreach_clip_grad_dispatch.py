# timm dispatch_clip_grad: clip modes "norm" (clip_grad_norm_, foreach and not), "value"
# (clip_grad_value_) and a hand-rolled foreach version (torch._foreach_norm, stack, clamp,
# torch._foreach_mul_ with a tensor coefficient) used inside a short training loop.
import torch
import torch.nn as nn


def clip_grad_norm_foreach(parameters, max_norm, norm_type=2.0, eps=1e-6):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    norms = torch._foreach_norm(grads, norm_type)
    total = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    clip_coef = max_norm / (total + eps)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    torch._foreach_mul_(grads, clip_coef_clamped)
    return total


def dispatch_clip_grad(parameters, value, mode="norm", norm_type=2.0):
    if mode == "norm":
        return torch.nn.utils.clip_grad_norm_(parameters, value, norm_type=norm_type)
    elif mode == "norm_foreach":
        return torch.nn.utils.clip_grad_norm_(parameters, value, norm_type=norm_type, foreach=True)
    elif mode == "value":
        torch.nn.utils.clip_grad_value_(parameters, value)
        return None
    elif mode == "manual":
        return clip_grad_norm_foreach(list(parameters), value, norm_type)
    raise ValueError(f"Unknown clip mode ({mode}).")


def make():
    m = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape))
    return m


x = torch.linspace(-3, 3, 40).reshape(10, 4)
y = torch.stack([x.sum(1), (x ** 2).mean(1)], 1)
for mode, value, nt in [("norm", 0.5, 2.0), ("norm_foreach", 0.5, 2.0), ("manual", 0.5, 2.0),
                        ("norm", 1.0, float("inf")), ("manual", 1.0, 1.0), ("value", 0.05, 2.0)]:
    m = make()
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    log = []
    for step in range(8):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        total = dispatch_clip_grad(m.parameters(), value, mode=mode, norm_type=nt)
        gmax = max(p.grad.abs().max().item() for p in m.parameters())
        opt.step()
        if step % 3 == 0:
            log.append((f"{loss.item():.4f}", None if total is None else f"{float(total):.4f}", f"{gmax:.4f}"))
    print(mode, nt, log)

grads = [torch.tensor([3.0, 4.0]), torch.tensor([[1.0, -2.0], [2.0, 0.0]])]
print(torch._foreach_norm(grads), torch._foreach_norm(grads, float("inf")), torch._foreach_norm(grads, 1))
torch._foreach_mul_(grads, torch.tensor(0.5))
print(grads)
torch._foreach_mul_(grads, [2.0, 3.0])
print(grads)
torch._foreach_clamp_max_(grads, 5.0)
torch._foreach_clamp_min_(grads, -5.0)
print(grads)
print(torch._foreach_abs(grads), torch._foreach_addcdiv([torch.ones(2)], [torch.ones(2)], [torch.full((2,), 4.0)], 2.0))
try:
    dispatch_clip_grad(make().parameters(), 1.0, mode="agc2")
except ValueError as e:
    print(type(e).__name__, e)
p = nn.Parameter(torch.ones(3))
print(torch.nn.utils.clip_grad_norm_([p], 1.0))
p.grad = torch.tensor([float("nan"), 1.0, 1.0])
try:
    torch.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:80])
print(torch.nn.utils.get_total_norm([torch.tensor([3.0, 4.0]), torch.tensor([12.0])]))
