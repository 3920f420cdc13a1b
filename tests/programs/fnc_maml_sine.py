# MAML on sine-wave regression with torch.func (functorch's maml-regression example): the inner
# loop takes grad(loss) w.r.t. a dict of parameters and updates it functionally; the meta loss
# over tasks is computed with vmap(..., in_dims=(None, 0, 0, 0, 0)) and backpropagated through
# the inner updates (second order) into the model's parameters.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

net = nn.Sequential(nn.Linear(1, 20), nn.ReLU(), nn.Linear(20, 20), nn.ReLU(), nn.Linear(20, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape) * 0.3)


def make_tasks(step, n_tasks=4, k=10):
    amps = 1.0 + 0.5 * torch.cos(torch.arange(n_tasks, dtype=torch.float32) + step)
    phases = 0.5 * torch.sin(torch.arange(n_tasks, dtype=torch.float32) * 2.0 + step)
    xs = torch.linspace(-5, 5, 2 * k).view(1, 2 * k, 1).expand(n_tasks, -1, -1)
    ys = amps.view(-1, 1, 1) * torch.sin(xs + phases.view(-1, 1, 1))
    return xs[:, ::2], ys[:, ::2], xs[:, 1::2], ys[:, 1::2]


def loss_fn(params, x, y):
    return F.mse_loss(functional_call(net, params, (x,)), y)


def adapt(params, x_spt, y_spt, inner_steps=2, alpha=0.05):
    for _ in range(inner_steps):
        grads = grad(loss_fn)(params, x_spt, y_spt)
        params = {k: p - alpha * grads[k] for k, p in params.items()}
    return params


def task_loss(params, x_spt, y_spt, x_qry, y_qry):
    return loss_fn(adapt(params, x_spt, y_spt), x_qry, y_qry)


params = dict(net.named_parameters())
x_spt, y_spt, x_qry, y_qry = make_tasks(0)
loop = torch.stack([task_loss(params, *(t[i] for t in (x_spt, y_spt, x_qry, y_qry))) for i in range(4)])
batched = vmap(task_loss, in_dims=(None, 0, 0, 0, 0))(params, x_spt, y_spt, x_qry, y_qry)
print("vmap over tasks matches loop:", torch.allclose(loop, batched, atol=1e-5))
print("query losses:", [f"{v:.4f}" for v in batched.tolist()])
print("meta loss requires grad:", batched.requires_grad)

inner_grads = grad(loss_fn)(params, x_spt[0], y_spt[0])
print("inner grads keep the graph to the meta-parameters:", inner_grads["0.weight"].requires_grad)

meta_opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(25):
    x_spt, y_spt, x_qry, y_qry = make_tasks(step)
    meta_opt.zero_grad()
    meta_loss = vmap(task_loss, in_dims=(None, 0, 0, 0, 0))(params, x_spt, y_spt, x_qry, y_qry).mean()
    meta_loss.backward()
    meta_opt.step()
    if step % 6 == 0 or step == 24:
        print(f"step {step:2d} meta loss {meta_loss.item():.3f}")

# after meta-training: adapt to a new task with the same inner loop
x = torch.linspace(-5, 5, 10).view(-1, 1)
y = 1.2 * torch.sin(x + 0.3)
adapted = adapt({k: v.detach() for k, v in net.named_parameters()}, x, y, inner_steps=5)
before, after = loss_fn(params, x, y).item(), loss_fn(adapted, x, y).item()
print("adaptation lowers the loss:", after < before, "| adapted params require grad:",
      adapted["0.weight"].requires_grad)
print("grad of a non-scalar loss:")
try:
    grad(lambda p: functional_call(net, p, (x,)))(params)
except RuntimeError as e:
    print(type(e).__name__, e)
