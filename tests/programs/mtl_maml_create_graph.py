# Classic MAML (Finn et al.) on sinusoid tasks without torch.func: inner-loop SGD on a list of
# fast weights with torch.autograd.grad(create_graph=True), functional forward through
# torch.nn.utils.stateless / torch.func.functional_call, meta-gradient into the slow weights.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

net = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.7 + 0.5 * i).view(p.shape))

names = [n for n, _ in net.named_parameters()]
meta_opt = torch.optim.Adam(net.parameters(), lr=1e-2)
inner_lr, inner_steps = 0.05, 2


def sample_task(k):
    amp = 1.0 + 0.4 * (k % 5)
    phase = 0.3 * k
    xs = torch.linspace(-5, 5, 10).unsqueeze(1)
    xq = torch.linspace(-4.5, 4.5, 7).unsqueeze(1)
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


def adapt(xs, ys, create_graph=True):
    fast = dict(net.named_parameters())
    for _ in range(inner_steps):
        loss = F.mse_loss(functional_call(net, fast, (xs,)), ys)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=create_graph)
        fast = {n: w - inner_lr * g for (n, w), g in zip(fast.items(), grads)}
    return fast


for it in range(12):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for k in range(4):
        xs, ys, xq, yq = sample_task(it * 4 + k)
        fast = adapt(xs, ys)
        meta_loss = meta_loss + F.mse_loss(functional_call(net, fast, (xq,)), yq)
    meta_loss = meta_loss / 4
    meta_loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
    meta_opt.step()
    if it % 3 == 0:
        print(f"iter {it:2d} meta-loss {meta_loss.item():.4f} grad-norm {gnorm.item():.4f}")

xs, ys, xq, yq = sample_task(3)
fast = adapt(xs, ys)
print("fast weights require grad:", [v.requires_grad for v in fast.values()][:2], fast[names[0]].grad_fn is not None)
print(type(fast[names[0]].grad_fn).__name__)
fo = adapt(xs, ys, create_graph=False)
print("first-order grad_fn:", type(fo[names[-1]].grad_fn).__name__)
before = F.mse_loss(net(xq), yq).item()
after = F.mse_loss(functional_call(net, fast, (xq,)), yq).item()
print(f"query loss before {before:.4f} after adaptation {after:.4f}")
# second-order term is nonzero: compare meta-gradients with and without create_graph
g2 = torch.autograd.grad(F.mse_loss(functional_call(net, adapt(xs, ys), (xq,)), yq), net[0].weight)[0]
print("meta grad (2nd order) norm:", f"{g2.norm().item():.4f}")
try:
    torch.autograd.grad(F.mse_loss(functional_call(net, fo, (xq,)), yq), net[0].weight)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
