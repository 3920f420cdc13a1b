# An ensemble of neural ODEs trained at once with torch.func (the "model ensembling" recipe applied
# to ODE vector fields): stack_module_state, vmap over functional_call inside an RK4 loop,
# per-member losses from one vmapped grad, the exact CNF divergence as trace(jacrev) under vmap,
# and member-wise Jacobians of the final state w.r.t. the initial condition.
import copy
import torch
import torch.nn as nn
from torch.func import functional_call, grad_and_value, jacrev, stack_module_state, vmap


class Field(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(2, 16)
        self.l2 = nn.Linear(16, 2)

    def forward(self, z):
        return self.l2(torch.tanh(self.l1(z)))


members = []
for m in range(4):
    f = Field()
    with torch.no_grad():
        for i, p in enumerate(f.parameters()):
            p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * (0.5 + 0.1 * m) + i).reshape(p.shape))
    members.append(f)
params, buffers = stack_module_state(members)
params = {k: v.detach() for k, v in params.items()}  # plain tensors: no graph across steps
print({k: tuple(v.shape) for k, v in params.items()}, len(buffers))
base = copy.deepcopy(members[0])


def field(p, z):
    return functional_call(base, (p,), (z,))


def rk4(p, z, steps=8, h=0.125):
    for _ in range(steps):
        k1 = field(p, z)
        k2 = field(p, z + h / 2 * k1)
        k3 = field(p, z + h / 2 * k2)
        k4 = field(p, z + h * k3)
        z = z + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return z


theta = torch.linspace(0, 3.0, 10)
z0 = torch.stack([torch.cos(theta), torch.sin(theta)], 1)
target = torch.stack([torch.cos(theta + 0.8), torch.sin(theta + 0.8)], 1) * 0.9


def loss_fn(p, z0, target):
    return ((rk4(p, z0) - target) ** 2).mean()


step = vmap(grad_and_value(loss_fn), in_dims=(0, None, None))
lr = 0.5
for it in range(10):
    grads, losses = step(params, z0, target)
    params = {k: v - lr * grads[k] for k, v in params.items()}
    if it % 3 == 0 or it == 9:
        print(f"it {it} losses", [round(v, 5) for v in losses.tolist()])
print("grad_fn of updated params:", {k: v.grad_fn for k, v in params.items()}["l1.weight"])

# exact divergence of each member's field at a few points: trace of the per-point Jacobian
pts = z0[:3]
div = vmap(vmap(lambda p, z: torch.trace(jacrev(field, argnums=1)(p, z)), in_dims=(None, 0)), in_dims=(0, None))(params, pts)
print("divergence (members x points):\n", div.round(decimals=4))

# sensitivity of the final state to the initial condition, one 2x2 Jacobian per member and point
J = vmap(vmap(jacrev(rk4, argnums=1), in_dims=(None, 0)), in_dims=(0, None))(params, pts)
print("J shape", tuple(J.shape))
print("log|det J| (members x points):\n", torch.linalg.slogdet(J)[1].round(decimals=4))

# same as looping over the members with the Module API
with torch.no_grad():
    for i, f in enumerate(members):
        for name, p in f.named_parameters():
            p.copy_(params[name][i])
loop = torch.stack([((torch.stack([rk4(dict(f.named_parameters()), z0)]) - target) ** 2).mean() for f in members])
print("vmap == loop:", torch.allclose(vmap(loss_fn, in_dims=(0, None, None))(params, z0, target), loop, atol=1e-6))
