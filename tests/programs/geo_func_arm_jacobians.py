# Batched manipulator Jacobians with torch.func as in modern robotics code: forward kinematics of
# a 3-link spatial arm from homogeneous transforms, torch.func.jacrev + vmap over a batch of joint
# configurations, manipulability via torch.linalg.svdvals, and a Gauss-Newton IK step via pinv.
import torch
from torch.func import jacrev, vmap

torch.set_printoptions(precision=4, sci_mode=False)
dt = torch.float64
lengths = torch.tensor([0.5, 0.4, 0.3], dtype=dt)


def rot_z(q):
    c, s = torch.cos(q), torch.sin(q)
    o, z = torch.ones_like(q), torch.zeros_like(q)
    return torch.stack([torch.stack([c, -s, z, z]), torch.stack([s, c, z, z]),
                        torch.stack([z, z, o, z]), torch.stack([z, z, z, o])])


def rot_y(q):
    c, s = torch.cos(q), torch.sin(q)
    o, z = torch.ones_like(q), torch.zeros_like(q)
    return torch.stack([torch.stack([c, z, s, z]), torch.stack([z, o, z, z]),
                        torch.stack([-s, z, c, z]), torch.stack([z, z, z, o])])


def trans_x(a):
    T = torch.eye(4, dtype=dt)
    T[0, 3] = a
    return T


def fk(q):
    T = rot_z(q[0]) @ trans_x(lengths[0])
    T = T @ rot_y(q[1]) @ trans_x(lengths[1])
    T = T @ rot_y(q[2]) @ trans_x(lengths[2])
    return T[:3, 3]


q0 = torch.tensor([0.3, -0.4, 0.8], dtype=dt)
print("tip", fk(q0))
J = jacrev(fk)(q0)
print("J\n", J)
J_ref = torch.autograd.functional.jacobian(fk, q0)
print("matches autograd.functional", torch.allclose(J, J_ref))

qs = torch.stack([torch.linspace(-1, 1, 5, dtype=dt), torch.linspace(0.2, -0.6, 5, dtype=dt), torch.linspace(0.5, 1.5, 5, dtype=dt)], -1)
tips = vmap(fk)(qs)
print("tips\n", tips)
Js = vmap(jacrev(fk))(qs)
print("batched J", Js.shape)
sv = torch.linalg.svdvals(Js)
print("singular values\n", sv)
print("manipulability", sv.prod(-1))
print("condition", sv[:, 0] / sv[:, -1])

target = torch.tensor([0.6, 0.3, 0.4], dtype=dt)
q = q0.clone()
for it in range(6):
    err = target - fk(q)
    q = q + torch.linalg.pinv(jacrev(fk)(q)) @ err
    print(it, f"{err.norm().item():.8f}")
print("q", q)

# Hessian of the squared distance-to-target, batched
def cost(q):
    return ((fk(q) - target) ** 2).sum()


H = vmap(torch.func.hessian(cost))(qs[:2])
print("hessian", H.shape)
print(H[0])
print("symmetric", torch.allclose(H, H.transpose(-1, -2)))
g = vmap(torch.func.grad(cost))(qs)
print("grads\n", g)
