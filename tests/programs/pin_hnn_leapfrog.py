# Hamiltonian neural network: H(q, p) from an MLP, symplectic vector field (dH/dp, -dH/dq) via
# torch.autograd.grad(create_graph=True), trained on pendulum derivatives, then integrated with
# leapfrog vs explicit Euler to compare energy drift.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class HNN(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, hidden), nn.Softplus(), nn.Linear(hidden, hidden), nn.Softplus(),
                                 nn.Linear(hidden, 1, bias=False))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                idx = torch.arange(p.numel(), dtype=torch.float64)
                p.copy_((0.5 * torch.cos(1.3 * idx + 0.7 * i) / (1 + 0.02 * idx)).view_as(p))

    def hamiltonian(self, q, p):
        return self.mlp(torch.stack([q, p], dim=-1)).squeeze(-1)

    def vector_field(self, q, p, create_graph=True):
        if not q.requires_grad:
            q = q.requires_grad_(True)
        if not p.requires_grad:
            p = p.requires_grad_(True)
        H = self.hamiltonian(q, p)
        dHdq, dHdp = torch.autograd.grad(H.sum(), (q, p), create_graph=create_graph)
        return dHdp, -dHdq


def pendulum(q, p):
    return p, -torch.sin(q)


def true_energy(q, p):
    return 0.5 * p ** 2 + (1 - torch.cos(q))


qg, pg = torch.meshgrid(torch.linspace(-2, 2, 8), torch.linspace(-1.5, 1.5, 8), indexing="ij")
q_train, p_train = qg.reshape(-1), pg.reshape(-1)
dq_true, dp_true = pendulum(q_train, p_train)

model = HNN()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(40):
    opt.zero_grad()
    dq, dp = model.vector_field(q_train.clone(), p_train.clone())
    loss = ((dq - dq_true) ** 2 + (dp - dp_true) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1} loss {loss.item():.4f}")


def leapfrog(q, p, h, steps):
    for _ in range(steps):
        _, dp = model.vector_field(q.detach(), p.detach(), create_graph=False)
        p = p + 0.5 * h * dp
        dq, _ = model.vector_field(q.detach(), p.detach(), create_graph=False)
        q = q + h * dq
        _, dp = model.vector_field(q.detach(), p.detach(), create_graph=False)
        p = p + 0.5 * h * dp
    return q.detach(), p.detach()


def euler(q, p, h, steps):
    for _ in range(steps):
        dq, dp = model.vector_field(q.detach(), p.detach(), create_graph=False)
        q, p = q + h * dq, p + h * dp
    return q.detach(), p.detach()


q0, p0 = torch.tensor([1.0]), torch.tensor([0.0])
with torch.no_grad():
    H0 = model.hamiltonian(q0, p0)
for name, integ in [("leapfrog", leapfrog), ("euler", euler)]:
    q1, p1 = integ(q0.clone(), p0.clone(), 0.1, 30)
    with torch.no_grad():
        drift = (model.hamiltonian(q1, p1) - H0).abs().item()
    print(f"{name}: q={q1.item():.3f} p={p1.item():.3f} learned-H drift={drift:.2e} < 1e-2: {drift < 1e-2}")

dq, dp = model.vector_field(torch.tensor([0.5]), torch.tensor([0.2]))
print("field grad_fn:", type(dq.grad_fn).__name__, type(dp.grad_fn).__name__)
print("true energy at start:", true_energy(q0, p0))
