# Task heads as an ensemble: torch.func.stack_module_state + vmap(functional_call) evaluates all
# task-specific heads on the shared features at once (the "model ensembling" tutorial applied to
# MTL heads), with in_dims pytrees, chunk_size, out_dims and vmap's error messages.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 4)
        self.out = nn.Linear(4, 1)
        self.register_buffer("scale", torch.ones(1))

    def forward(self, h):
        return self.out(F.relu(self.fc(h))).squeeze(-1) * self.scale


trunk = nn.Linear(3, 5)
heads = [Head() for _ in range(4)]
with torch.no_grad():
    trunk.weight.copy_(torch.cos(torch.arange(15.0)).view(5, 3) * 0.5)
    trunk.bias.zero_()
    for t, hd in enumerate(heads):
        for i, p in enumerate(hd.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.5 + 0.2 * t) + i).view(p.shape) * 0.5)
        hd.scale.fill_(1.0 + t)

params, buffers = stack_module_state(heads)
print({k: (tuple(v.shape), v.requires_grad) for k, v in params.items()})
print({k: tuple(v.shape) for k, v in buffers.items()})
base = copy.deepcopy(heads[0])


def call_head(p, b, h):
    return functional_call(base, (p, b), (h,))


x = torch.stack([torch.linspace(-1, 1, 6), torch.linspace(0, 1, 6), torch.cos(torch.arange(6.0))], 1)
h = trunk(x)
preds = vmap(call_head, in_dims=(0, 0, None))(params, buffers, h)
print("preds", tuple(preds.shape))
print(preds.detach().round(decimals=4))
loop = torch.stack([hd(h) for hd in heads])
print("matches loop:", torch.allclose(preds, loop, atol=1e-6))
print("chunked equal:", torch.allclose(vmap(call_head, in_dims=(0, 0, None), chunk_size=3)(params, buffers, h), preds))
print("out_dims=1:", tuple(vmap(call_head, in_dims=(0, 0, None), out_dims=1)(params, buffers, h).shape))

targets = torch.stack([x[:, 0], x[:, 1] * 2, x[:, 2], -x[:, 0]])
opt = torch.optim.Adam(list(params.values()) + list(trunk.parameters()), lr=0.02)
for step in range(15):
    opt.zero_grad()
    preds = vmap(call_head, in_dims=(0, 0, None))(params, buffers, trunk(x))
    per_task = ((preds - targets) ** 2).mean(1)
    per_task.sum().backward()
    opt.step()
    if step % 5 == 0:
        print(step, per_task.detach().round(decimals=4), f"{params['fc.weight'].grad.norm().item():.4f}")

print(type(preds.grad_fn).__name__ in ("StackBackward0", "ViewBackward0", "SqueezeBackward1", "MulBackward0"))
try:
    vmap(call_head, in_dims=(0, 0, 0))(params, buffers, h[:5])
except ValueError as e:
    print("ValueError", e)
try:
    vmap(lambda a: a.sum(), in_dims=1)(torch.ones(3))
except ValueError as e:
    print("ValueError", e)
try:
    vmap(lambda a: a, in_dims=None)(torch.ones(3))
except ValueError as e:
    print("ValueError", e)
print(vmap(lambda a, b: a * b, in_dims=(0, None))(torch.arange(3.0), torch.tensor(2.0)))
print(vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))({"a": torch.arange(4.0), "b": torch.tensor(10.0)}))
