# Forward kinematics of a planar 3-link arm with cumulative joint angles (torch.cumsum),
# Jacobian via torch.autograd.functional.jacobian, damped-least-squares IK with torch.linalg.solve,
# gradient-descent IK with Adam, and angle wrapping with torch.atan2.
import torch
from torch.autograd.functional import jacobian

torch.set_printoptions(precision=4, sci_mode=False)
L = torch.tensor([1.0, 0.8, 0.5], dtype=torch.float64)


def fk(q):
    phi = torch.cumsum(q, dim=-1)
    x = (L * torch.cos(phi)).sum(-1)
    y = (L * torch.sin(phi)).sum(-1)
    return torch.stack([x, y, phi[..., -1]], -1)


def joint_positions(q):
    phi = torch.cumsum(q, -1)
    pts = torch.cumsum(torch.stack([L * torch.cos(phi), L * torch.sin(phi)], -1), dim=-2)
    return torch.cat([torch.zeros(*q.shape[:-1], 1, 2, dtype=q.dtype), pts], -2)


def wrap(a):
    return torch.atan2(torch.sin(a), torch.cos(a))


q0 = torch.tensor([0.3, 0.5, -0.4], dtype=torch.float64)
print("pose", fk(q0))
print("joints\n", joint_positions(q0))
J = jacobian(fk, q0)
print("J\n", J)
print("manipulability", torch.sqrt(torch.linalg.det(J[:2] @ J[:2].T)).item().__round__(6))

target = torch.tensor([1.2, 1.1], dtype=torch.float64)
q = q0.clone()
lam = 0.1
for it in range(8):
    e = target - fk(q)[:2]
    Jp = jacobian(lambda z: fk(z)[:2], q)
    dq = Jp.T @ torch.linalg.solve(Jp @ Jp.T + lam ** 2 * torch.eye(2, dtype=q.dtype), e)
    q = wrap(q + dq)
    print(it, f"{e.norm().item():.6f}")
print("dls q", q, "reach", fk(q)[:2])

# pseudo-inverse step and batch of targets with gradient-based IK
Jp = jacobian(lambda z: fk(z)[:2], q0)
print("pinv\n", torch.linalg.pinv(Jp))
targets = torch.tensor([[1.5, 0.5], [0.0, 1.8], [-1.0, 1.0], [0.5, -1.2]], dtype=torch.float64)
qs = torch.zeros(4, 3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([qs], lr=0.1)
for step in range(60):
    opt.zero_grad()
    err = (fk(qs)[:, :2] - targets).pow(2).sum(-1)
    loss = err.mean() + 1e-3 * qs.pow(2).sum()
    loss.backward()
    opt.step()
    if step % 20 == 0 or step == 59:
        print(step, f"{loss.item():.5f}", qs.grad.abs().max().item().__round__(4))
print("ik err", err.detach().sqrt().round(decimals=3))
print("wrapped deg", torch.rad2deg(wrap(qs.detach() + 2 * torch.pi)).round(decimals=1))

# angle differences across the +-pi seam
a = torch.tensor([3.1, -3.1, 0.5, -2.0])
b = torch.tensor([-3.1, 3.1, 6.5, 2.0])
print("naive", a - b, "wrapped", wrap(a - b))
print("atan2 quadrants", torch.atan2(torch.tensor([1.0, 1.0, -1.0, -1.0, 0.0, -0.0]), torch.tensor([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])))
