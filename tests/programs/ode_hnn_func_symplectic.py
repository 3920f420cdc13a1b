# Hamiltonian NN in the torch.func style: H(q, p) via functional_call over a params dict,
# the symplectic gradient from grad(..., argnums=(0, 1)) under vmap, the Jacobian of one
# leapfrog step from jacrev / jacfwd checked for symplecticity (J^T Omega J = Omega), and
# training with grad_and_value + has_aux over the parameter dict.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, grad_and_value, jacrev, jacfwd, vmap

torch.set_printoptions(precision=4, sci_mode=False)


class HNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.nn.functional.softplus(self.fc1(x))).squeeze(-1)


model = HNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.9 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.1 + 0.5 * i).reshape(p.shape))
params = {k: v.detach().clone() for k, v in model.named_parameters()}


def H(params, q, p):
    return functional_call(model, params, (torch.stack([q, p]),))


dH = grad(H, argnums=(1, 2))


def field(params, q, p):
    dq, dp = dH(params, q, p)
    return dp, -dq


q = torch.linspace(-1.0, 1.0, 5)
p = torch.cos(torch.linspace(0.0, 3.0, 5))
qdot, pdot = vmap(field, in_dims=(None, 0, 0))(params, q, p)
print("qdot", qdot)
print("pdot", pdot)

# energy is conserved along the exact flow: dH/dt = dH/dq qdot + dH/dp pdot = 0
dq, dp = vmap(dH, in_dims=(None, 0, 0))(params, q, p)
print("dH/dt max:", (dq * qdot + dp * pdot).abs().max().item() < 1e-6)


H_STEP = torch.tensor(0.1)


def leapfrog(params, x, h=H_STEP):
    q, p = x[0], x[1]
    p = p - dH(params, q, p)[0] * (0.5 * h)
    q = q + dH(params, q, p)[1] * h
    p = p - dH(params, q, p)[0] * (0.5 * h)
    return torch.stack([q, p])


x0 = torch.tensor([0.4, -0.2])
J_rev = jacrev(leapfrog, argnums=1)(params, x0)
J_fwd = jacfwd(leapfrog, argnums=1)(params, x0)
print("step Jacobian\n", J_rev)
print("jacrev == jacfwd:", torch.allclose(J_rev, J_fwd, atol=1e-6))
Omega = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
print("symplectic defect:", (J_rev.T @ Omega @ J_rev - Omega).abs().max().item() < 1e-5)
print("det J:", round(torch.linalg.det(J_rev).item(), 5))

# batched Jacobians of the step map and per-parameter sensitivity of the final state
xs = torch.stack([q, p], dim=1)
Js = vmap(jacrev(leapfrog, argnums=1), in_dims=(None, 0))(params, xs)
print("batched J shape:", tuple(Js.shape), "dets:", [round(d, 4) for d in torch.linalg.det(Js).tolist()])
dstep = jacrev(leapfrog, argnums=0)(params, x0)
print({k: tuple(v.shape) for k, v in dstep.items()})

# train H to match pendulum data: H* = p^2/2 + (1 - cos q)
t = torch.linspace(0, 2.0, 16)
q_data, p_data = 0.8 * torch.cos(1.0 * t), -0.8 * torch.sin(1.0 * t)
dq_true, dp_true = p_data, -torch.sin(q_data)


def loss_fn(params):
    qd, pd = vmap(field, in_dims=(None, 0, 0))(params, q_data, p_data)
    mse = ((qd - dq_true) ** 2).mean() + ((pd - dp_true) ** 2).mean()
    return mse, {"qd_err": (qd - dq_true).abs().max().detach()}


step_fn = grad_and_value(loss_fn, has_aux=True)
lr = 0.05
for it in range(15):
    g, (loss, aux) = step_fn(params)
    params = {k: v - lr * g[k] for k, v in params.items()}
    if it % 3 == 0:
        print(f"it {it:2d} loss {loss.item():.5f} max|qd err| {aux['qd_err'].item():.4f}")
print(sorted(g.keys()), all(v.grad_fn is None for v in g.values()))
