# Prioritized experience replay (Schaul et al.) with tensors: priorities.pow(alpha), stratified
# sampling by cumsum + searchsorted with fixed uniforms, IS weights (N*P)^-beta / max, the new
# `weight=` argument of F.huber_loss / F.mse_loss / F.l1_loss, and priority updates via index_put_.
import torch
import torch.nn as nn
import torch.nn.functional as F

capacity, batch, alpha, eps = 12, 4, 0.6, 1e-6
priorities = torch.ones(capacity)
priorities[:8] = torch.linspace(0.2, 2.0, 8)
size = 10


def sample(beta, u):
    probs = priorities[:size].pow(alpha)
    probs = probs / probs.sum()
    cdf = torch.cumsum(probs, dim=0)
    targets = (torch.arange(batch, dtype=torch.float32) + u) / batch
    idx = torch.searchsorted(cdf, targets.clamp(max=cdf[-1].item() - 1e-6))
    weights = (size * probs[idx]).pow(-beta)
    weights = weights / weights.max()
    return idx, weights


net = nn.Linear(3, 2)
with torch.no_grad():
    net.weight.copy_(torch.tensor([[0.3, -0.2, 0.5], [0.1, 0.4, -0.3]]))
    net.bias.fill_(0.05)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
states = torch.stack([torch.sin(torch.arange(3) + 0.5 * i) for i in range(capacity)])
actions = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0])
targets = torch.cos(torch.arange(capacity, dtype=torch.float32))
us = torch.tensor([[0.1, 0.5, 0.9, 0.3], [0.7, 0.2, 0.4, 0.8], [0.05, 0.95, 0.5, 0.5]])

for step in range(3):
    beta = min(1.0, 0.4 + step * 0.3)
    idx, w = sample(beta, us[step])
    q = net(states[idx]).gather(1, actions[idx].unsqueeze(1)).squeeze(1)
    td_error = targets[idx] - q
    huber_w = F.huber_loss(q, targets[idx], weight=w)
    manual = (w * F.huber_loss(q, targets[idx], reduction="none")).mean()
    mse_w = F.mse_loss(q, targets[idx], weight=w)
    l1_w = F.l1_loss(q, targets[idx], weight=w, reduction="sum")
    opt.zero_grad()
    huber_w.backward()
    opt.step()
    priorities.index_put_((idx,), td_error.detach().abs() + eps)
    print(step, idx.tolist(), w.round(decimals=4), f"{huber_w.item():.5f} {manual.item():.5f} "
          f"{mse_w.item():.5f} {l1_w.item():.5f}", huber_w.grad_fn.name(), mse_w.grad_fn.name())
    print("  ", priorities.round(decimals=3), net.bias.grad)

q = net(states[:4]).max(1).values
w = torch.tensor([1.0, 0.5, 0.25, 0.0])
for red in ["none", "sum", "mean"]:
    outs = [F.huber_loss(q, targets[:4], weight=w, reduction=red, delta=0.5),
            F.mse_loss(q, targets[:4], weight=w, reduction=red),
            F.l1_loss(q, targets[:4], weight=w, reduction=red)]
    print(red, [o.detach().round(decimals=4) for o in outs], [o.grad_fn.name() for o in outs])
w2 = torch.tensor([0.2, 0.4, 0.6, 0.8], requires_grad=True)
F.mse_loss(q, targets[:4], weight=w2).backward()
print(w2.grad.round(decimals=4), net.weight.grad is not None)
for bad in [lambda: F.huber_loss(q, targets[:4], weight=torch.ones(4, 1)),
            lambda: F.mse_loss(q, targets[:4], weight=torch.ones(2)),
            lambda: F.l1_loss(q, targets[:4], weight=w, reduction="avg"),
            lambda: F.huber_loss(q, targets[:4], weight=w, reduction="batchmean")]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
