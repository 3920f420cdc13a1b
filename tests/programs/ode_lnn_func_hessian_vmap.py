# Lagrangian NN accelerations written with torch.func: vmap(hessian(L)) split into the
# qdot-qdot and q-qdot blocks, jacfwd(jacrev) cross-check, torch.linalg.solve for qddot,
# and torch.autograd.functional.hessian(vectorize=True) / jacobian(strategy="forward-mode")
# on the analytic spring-pendulum Lagrangian.
import torch
import torch.nn as nn
from torch.func import hessian, jacfwd, jacrev, vmap, grad, functional_call
from torch.autograd.functional import hessian as ag_hessian, jacobian as ag_jacobian

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)


def spring_pendulum_L(x):
    # x = (r, theta, r_dot, theta_dot); m = 1, k = 4, l0 = 1, g = 9.8
    r, th, rd, thd = x[0], x[1], x[2], x[3]
    T = 0.5 * (rd ** 2 + r ** 2 * thd ** 2)
    V = 0.5 * 4.0 * (r - 1.0) ** 2 - 9.8 * r * torch.cos(th)
    return T - V


def lagrangian_accel(L, x):
    n = x.shape[0] // 2
    qd = x[n:]
    H = hessian(L)(x)
    g = grad(L)(x)
    M = H[n:, n:]
    C = H[n:, :n]
    return torch.linalg.solve(M, g[:n] - C @ qd)


x = torch.tensor([1.2, 0.3, 0.1, -0.5])
acc = lagrangian_accel(spring_pendulum_L, x)
r, th, rd, thd = x.tolist()
exact = torch.tensor([r * thd ** 2 - 4.0 * (r - 1.0) + 9.8 * torch.cos(torch.tensor(th)).item(),
                      (-9.8 * torch.sin(torch.tensor(th)).item() - 2 * rd * thd) / r])
print("accel:", acc)
print("exact:", exact)
print("match:", torch.allclose(acc, exact))

H_func = hessian(spring_pendulum_L)(x)
H_ff = jacfwd(jacrev(spring_pendulum_L))(x)
H_ag = ag_hessian(spring_pendulum_L, x, vectorize=True)
H_ag2 = ag_hessian(spring_pendulum_L, x, vectorize=True, outer_jacobian_strategy="forward-mode")
print("hessian\n", H_func)
print(torch.allclose(H_func, H_ff), torch.allclose(H_func, H_ag), torch.allclose(H_func, H_ag2))
J_fm = ag_jacobian(lambda x: lagrangian_accel(spring_pendulum_L, x), x, vectorize=True, strategy="reverse-mode")
print("d accel / d state\n", J_fm)

# a learned Lagrangian (MLP), batched accelerations and training to the analytic field
class LNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 24), nn.Softplus(), nn.Linear(24, 24), nn.Softplus(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1) + 0.5 * (x[..., 2:] ** 2).sum(-1)


lnn = LNN()
with torch.no_grad():
    for i, p in enumerate(lnn.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.61 + 1.7 * i).reshape(p.shape))

t = torch.linspace(0.0, 1.0, 6)
X = torch.stack([1.0 + 0.2 * torch.sin(3 * t), 0.5 * torch.cos(2 * t), 0.6 * torch.cos(3 * t), -torch.sin(2 * t)], dim=1)
target = vmap(lambda s: lagrangian_accel(spring_pendulum_L, s))(X)
print("target[:3]\n", target[:3])

params = dict(lnn.named_parameters())


def model_accel(params, s):
    return lagrangian_accel(lambda z: functional_call(lnn, params, (z,)), s)


batched = vmap(model_accel, in_dims=(None, 0))
opt = torch.optim.Adam(lnn.parameters(), lr=5e-3)
for step in range(7):
    opt.zero_grad()
    pred = batched(params, X)
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step:2d} loss {loss.item():.6f}")
print("grad norms:", {k: round(v.grad.norm().item(), 5) for k, v in list(params.items())[:2]})
