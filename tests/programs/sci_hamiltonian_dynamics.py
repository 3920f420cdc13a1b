# Hamiltonian dynamics from the gradient of an energy, as in Hamiltonian Neural Networks /
# "symplectic integrators in PyTorch" posts: dq/dt = dH/dp, dp/dt = -dH/dq obtained with
# torch.autograd.grad(H.sum(), (q, p), create_graph=True), a leapfrog integrator, energy
# conservation checks, a small HNN trained on pendulum data, and gradients of the learned
# vector field w.r.t. the parameters (double backward through the energy).
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=6)


def pendulum_H(q, p, m=1.0, l=1.0, g=9.81):
    return p ** 2 / (2 * m * l ** 2) + m * g * l * (1 - torch.cos(q))


def vector_field(H_fn, q, p, create_graph=False):
    with torch.enable_grad():
        q = q if q.requires_grad else q.detach().requires_grad_(True)
        p = p if p.requires_grad else p.detach().requires_grad_(True)
        H = H_fn(q, p)
        dHdq, dHdp = torch.autograd.grad(H.sum(), (q, p), create_graph=create_graph)
    return dHdp, -dHdq


def leapfrog(H_fn, q, p, dt, steps):
    qs, ps = [q], [p]
    for _ in range(steps):
        _, dp = vector_field(H_fn, q, p)
        p = p + 0.5 * dt * dp
        dq, _ = vector_field(H_fn, q, p)
        q = q + dt * dq
        _, dp = vector_field(H_fn, q, p)
        p = p + 0.5 * dt * dp
        qs.append(q)
        ps.append(p)
    return torch.stack(qs), torch.stack(ps)


q0 = torch.tensor([0.5, 1.0, 2.0])
p0 = torch.tensor([0.0, 0.5, -1.0])
dq, dp = vector_field(pendulum_H, q0, p0)
print(dq, dp)
with torch.no_grad():
    qs, ps = leapfrog(pendulum_H, q0, p0, dt=0.05, steps=40)
print(qs.shape, qs.requires_grad, qs[-1], ps[-1])
E = pendulum_H(qs, ps)
print("energy drift", (E - E[0]).abs().max(dim=0).values)
print(torch.allclose(E[-1], E[0], atol=1e-2))

# harmonic oscillator: H = (p^2 + q^2)/2 in 2D phase space, Hessian is the identity
x = torch.tensor([0.3, -0.4])
Hess = torch.autograd.functional.hessian(lambda z: 0.5 * (z ** 2).sum(), x)
print(Hess)
J = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
print(J @ Hess, torch.linalg.eigvalsh(Hess))
Hp = torch.autograd.functional.hessian(lambda q, p: pendulum_H(q, p).sum(), (q0, p0))
print(Hp[0][0], Hp[0][1], Hp[1][1], sep="\n")


class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.3 * torch.cos(torch.arange(p.numel()) * 0.77 + i).reshape(p.shape))

    def forward(self, q, p):
        return self.mlp(torch.stack([q, p], dim=-1)).squeeze(-1)


model = HNN()
q_data = qs[::4].reshape(-1)
p_data = ps[::4].reshape(-1)
dq_true, dp_true = vector_field(pendulum_H, q_data, p_data)
print(q_data.shape, dq_true[:3], dp_true[:3])
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(5):
    opt.zero_grad()
    dq_hat, dp_hat = vector_field(model, q_data, p_data, create_graph=True)
    loss = ((dq_hat - dq_true) ** 2 + (dp_hat - dp_true) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", dq_hat.grad_fn.name())
print(model.mlp[2].weight.grad[0, :4])
print(model.mlp[2].bias.grad)

# gradient of H wrt inputs only, without create_graph, does not track the parameters
dq_hat, dp_hat = vector_field(model, q_data, p_data)
print(dq_hat.requires_grad, dp_hat.grad_fn)
try:
    dq_hat.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
