# The "Jacobian of the task-loss vector" view of multi-task gradients: torch.autograd.grad with
# is_grads_batched=True, torch.autograd.functional.jacobian(vectorize=True), torch.func.jacrev over
# a parameter dict, then IMTL-G style closed-form weights with torch.linalg.solve / pinv.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, jacrev

torch.set_default_dtype(torch.float64)
trunk = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 3))
with torch.no_grad():
    for i, p in enumerate(trunk.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.1 + 0.4 * i).view(p.shape) * 0.7)

x = torch.stack([torch.linspace(-1, 1, 9), torch.cos(torch.arange(9.0) * 0.6)], 1)
Y = torch.stack([x[:, 0], x[:, 1] ** 2, x.sum(1)], 1)


def loss_vector(out):
    return ((out - Y) ** 2).mean(0)  # one loss per task


params = list(trunk.parameters())
losses = loss_vector(trunk(x))
print("losses", losses.round(decimals=5))
eye = torch.eye(3)
rows = torch.autograd.grad(losses, params, grad_outputs=eye, is_grads_batched=True, retain_graph=True)
print([tuple(r.shape) for r in rows])
J = torch.cat([r.flatten(1) for r in rows], 1)
print("J", tuple(J.shape), f"{J.norm().item():.5f}")

# same thing with autograd.functional.jacobian on a function of the flat parameter vector
flat0 = torch.nn.utils.parameters_to_vector(params).detach()
shapes = [p.shape for p in params]


def losses_of_flat(theta):
    chunks = torch.split(theta, [s.numel() for s in shapes])
    ps = {n: c.view(s) for (n, _), c, s in zip(trunk.named_parameters(), chunks, shapes)}
    return loss_vector(functional_call(trunk, ps, (x,)))


J2 = torch.autograd.functional.jacobian(losses_of_flat, flat0, vectorize=True)
print("jacobian vectorize matches:", torch.allclose(J, J2))
J3 = torch.autograd.functional.jacobian(losses_of_flat, flat0, strategy="forward-mode", vectorize=True)
print("forward-mode matches:", torch.allclose(J, J3))
Jd = jacrev(lambda ps: loss_vector(functional_call(trunk, ps, (x,))))(dict(trunk.named_parameters()))
print({k: tuple(v.shape) for k, v in Jd.items()}, Jd["0.weight"].requires_grad)

# IMTL-G: find weights so the aggregated gradient has equal projections on all unit task grads
U = F.normalize(J, dim=1)
D = J[:1] - J[1:]
Udiff = U[:1] - U[1:]
A = D @ Udiff.T
b = J[0] @ Udiff.T
alpha = torch.linalg.solve(A.T, b)
weights = torch.cat([1 - alpha.sum().unsqueeze(0), alpha])
print("IMTL weights", weights.round(decimals=4), f"sum {weights.sum().item():.4f}")
g = weights @ J
print("projections", (U @ g).round(decimals=4))
pinv_w = torch.linalg.pinv(J.T) @ g
print("pinv recovers weights:", torch.allclose(pinv_w, weights, atol=1e-6))
sol = torch.linalg.lstsq(J.T, g.unsqueeze(1)).solution.squeeze(1)
print("lstsq:", sol.round(decimals=4))
gram = J @ J.T
L = torch.linalg.cholesky(gram)
print("cholesky diag:", L.diagonal().round(decimals=4))
print("eigvalsh:", torch.linalg.eigvalsh(gram).round(decimals=4))
print("cond:", f"{torch.linalg.cond(gram).item():.3f}", "det>0:", torch.linalg.det(gram).item() > 0)
try:
    torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
