# REDQ / SAC-N ensemble critics: torch.func.stack_module_state + functional_call under vmap,
# a random-subset min replaced by fixed index subsets, ensemble std as an uncertainty bonus,
# and the same ensemble written as one batched Linear via torch.baddbmm.
import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

E, D, B = 4, 3, 5
critics = []
for e in range(E):
    m = nn.Sequential(nn.Linear(D, 6), nn.ReLU(), nn.Linear(6, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + e + 3 * i).view_as(p) * 0.5)
    critics.append(m)
params, buffers = stack_module_state(critics)
print(sorted(params), params["0.weight"].shape, params["0.weight"].requires_grad)
base = copy.deepcopy(critics[0]).to("meta")


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.stack([torch.cos(torch.arange(D) * 0.5 + i) for i in range(B)])
q_all = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(q_all.shape, q_all.squeeze(-1).round(decimals=4))
loop = torch.stack([c(x) for c in critics])
print(torch.allclose(q_all, loop, atol=1e-6))

subsets = [[0, 2], [1, 3], [2, 3]]
for s in subsets:
    q_min = q_all[s].min(dim=0).values.squeeze(-1)
    print(s, q_min.round(decimals=4))
mean, std = q_all.mean(0).squeeze(-1), q_all.std(0).squeeze(-1)
print((mean - 0.5 * std).round(decimals=4), q_all.var(0, unbiased=False).squeeze(-1).round(decimals=4))

target = torch.linspace(-1, 1, B).unsqueeze(-1)
loss = ((q_all - target.unsqueeze(0)) ** 2).mean(dim=(1, 2)).sum()
loss.backward()
print(f"{loss.item():.4f}", params["2.bias"].grad.view(-1).round(decimals=4), params["0.weight"].grad.shape)

# batched-linear ensemble
W1 = params["0.weight"].detach().transpose(1, 2)          # (E, D, 6)
b1 = params["0.bias"].detach().unsqueeze(1)              # (E, 1, 6)
W2 = params["2.weight"].detach().transpose(1, 2)
b2 = params["2.bias"].detach().unsqueeze(1)
h = torch.relu(torch.baddbmm(b1, x.expand(E, B, D), W1))
q_bmm = torch.baddbmm(b2, h, W2)
print(q_bmm.shape, torch.allclose(q_bmm, q_all.detach(), atol=1e-6))
per_sample = vmap(lambda p, b: fmodel(p, b, x).mean())(params, buffers)
print(per_sample.round(decimals=4), per_sample.grad_fn is not None)
