# Training a deep ensemble in one shot: stack_module_state + vmap(functional_call), gradients
# for all members with vmap(grad_and_value(..., has_aux=True), in_dims=(0, 0, None, None)),
# a hand-written Adam step over the stacked parameters, and disagreement-based uncertainty.
import copy

import torch
import torch.nn as nn
from torch.func import functional_call, grad_and_value, stack_module_state, vmap

torch.set_default_dtype(torch.float64)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1, 16)
        self.fc2 = nn.Linear(16, 1)
        self.register_buffer("scale", torch.tensor(1.0))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x))) * self.scale


members = []
for m in range(4):
    net = Net()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.6 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * (0.9 + 0.2 * m) + i).view_as(p))
        net.scale.fill_(1.0 + 0.1 * m)
    members.append(net)

params, buffers = stack_module_state(members)
print({k: (tuple(v.shape), v.requires_grad) for k, v in params.items()})
print({k: tuple(v.shape) for k, v in buffers.items()})
base = copy.deepcopy(members[0])  # the tutorial moves it to "meta"

x = torch.linspace(-2, 2, 24).unsqueeze(1)
y = torch.sin(2 * x)


def loss_fn(p, b, xb, yb):
    pred = functional_call(base, (p, b), (xb,))
    loss = ((pred - yb) ** 2).mean()
    return loss, pred.detach()


params = {k: v.detach() for k, v in params.items()}
m_state = {k: torch.zeros_like(v) for k, v in params.items()}
v_state = {k: torch.zeros_like(v) for k, v in params.items()}
step_fn = vmap(grad_and_value(loss_fn, has_aux=True), in_dims=(0, 0, None, None))
lr, b1, b2, eps = 0.02, 0.9, 0.999, 1e-8
for step in range(1, 41):
    grads, (losses, preds) = step_fn(params, buffers, x, y)
    for k in params:
        m_state[k] = b1 * m_state[k] + (1 - b1) * grads[k]
        v_state[k] = b2 * v_state[k] + (1 - b2) * grads[k] ** 2
        mhat = m_state[k] / (1 - b1 ** step)
        vhat = v_state[k] / (1 - b2 ** step)
        params[k] = params[k] - lr * mhat / (vhat.sqrt() + eps)
    if step % 10 == 0:
        print(f"step {step}: losses", [f"{l:.4f}" for l in losses.tolist()], "preds", tuple(preds.shape))

x_test = torch.tensor([[-3.0], [0.0], [3.0]])
preds = vmap(functional_call, in_dims=(None, 0, None), out_dims=1)(base, (params, buffers), (x_test,))
print("ensemble predictions shape", tuple(preds.shape))
print("mean", preds.mean(1).squeeze(-1))
print("std ", preds.std(1).squeeze(-1))
print("uncertainty grows off-data:", bool(preds.std(1)[0] > preds.std(1)[1]))

with torch.no_grad():
    for i, net in enumerate(members):
        for name, p in net.named_parameters():
            p.copy_(params[name][i])
print("loop agrees:", torch.allclose(torch.stack([net(x_test) for net in members], 1), preds))
