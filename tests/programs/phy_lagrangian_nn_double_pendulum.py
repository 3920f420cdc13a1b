# Lagrangian Neural Network style dynamics (Cranmer et al. "Lagrangian Neural Networks"):
# q_tt = (d2L/dqdot2)^-1 [dL/dq - d2L/(dq dqdot) qdot], with the Hessian and mixed
# derivatives from torch.autograd.functional.hessian / jacobian, checked on an analytic pendulum.
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, jacobian

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)


def lagrangian_analytic(state, m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.8):
    t1, t2, w1, w2 = state
    T1 = 0.5 * m1 * (l1 * w1) ** 2
    T2 = 0.5 * m2 * ((l1 * w1) ** 2 + (l2 * w2) ** 2 + 2 * l1 * l2 * w1 * w2 * torch.cos(t1 - t2))
    T = T1 + T2
    y1 = -l1 * torch.cos(t1)
    y2 = y1 - l2 * torch.cos(t2)
    V = m1 * g * y1 + m2 * g * y2
    return T - V


def equation_of_motion(lagrangian, state):
    n = state.shape[0] // 2
    H = hessian(lagrangian, state, create_graph=True)
    J = jacobian(lagrangian, state, create_graph=True)
    q_t = state[n:]
    A = H[n:, n:]
    B = J[:n] - H[n:, :n] @ q_t
    q_tt = torch.linalg.solve(A, B)
    return torch.cat([q_t, q_tt])


state = torch.tensor([0.7, -0.4, 0.3, 0.1])
print("L:", lagrangian_analytic(state))
H = hessian(lagrangian_analytic, state)
print("Hessian shape", H.shape, "symmetric", torch.allclose(H, H.T))
print(H)
deriv = equation_of_motion(lagrangian_analytic, state)
print("state derivative", deriv)


def rk4_step(f, x, dt):
    k1 = f(x)
    k2 = f(x + dt / 2 * k1)
    k3 = f(x + dt / 2 * k2)
    k4 = f(x + dt * k3)
    return x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def energy(state):
    return hessian(lagrangian_analytic, state)[2:, 2:] @ state[2:] @ state[2:] / 2 - (lagrangian_analytic(state) - 0.5 * hessian(lagrangian_analytic, state)[2:, 2:] @ state[2:] @ state[2:])


x = state.clone()
E0 = energy(x)
for i in range(20):
    x = rk4_step(lambda s: equation_of_motion(lagrangian_analytic, s).detach(), x, 0.01)
print("after 20 steps", x)
print("energy drift %.2e" % abs(energy(x) - E0).item(), "< 1e-6:", abs(energy(x) - E0).item() < 1e-6)


class LNN(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, hidden), nn.Softplus(), nn.Linear(hidden, hidden), nn.Softplus(),
                                 nn.Linear(hidden, 1))
        with torch.no_grad():
            for i, p in enumerate(self.net.parameters()):
                p.copy_(0.4 * torch.cos(torch.arange(p.numel()) * 0.37 + i).reshape(p.shape))

    def forward(self, s):
        # a fixed kinetic prior keeps d2L/dqdot2 invertible, as LNN implementations often do
        return self.net(s).squeeze(-1) + 0.5 * (s[..., 2:] ** 2).sum(-1)


lnn = LNN()
states = torch.stack([torch.tensor([0.1 * k, -0.05 * k, 0.2, -0.1 * k]) for k in range(6)])
targets = torch.stack([equation_of_motion(lagrangian_analytic, s) for s in states]).detach()
opt = torch.optim.Adam(lnn.parameters(), lr=1e-2)
for step in range(8):
    opt.zero_grad()
    preds = torch.stack([equation_of_motion(lnn, s) for s in states])
    loss = ((preds[:, 2:] - targets[:, 2:]) ** 2).mean()
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(lnn.parameters(), max_norm=10.0)
    opt.step()
    if step % 2 == 0:
        print(f"step {step} loss {loss.item():.5f} grad-norm {gnorm.item():.4f}")
print(preds.shape, preds.grad_fn.name())
