# torch.autograd.functional vjp / vhp / hvp / jvp on a scalar energy and a vector field,
# checking against the explicit Jacobian/Hessian, with create_graph and strict mode errors.
import torch
from torch.autograd.functional import vjp, jvp, vhp, hvp, jacobian, hessian

torch.set_default_dtype(torch.float64)


def energy(q):
    # anharmonic chain: sum of 0.5 * (q_{i+1}-q_i)^2 + 0.25 * q_i^4
    d = q[1:] - q[:-1]
    return 0.5 * (d ** 2).sum() + 0.25 * (q ** 4).sum()


def field(q, p):
    return torch.stack([p.sum() * q[0], q.pow(2).sum() - p[1], torch.sin(q * p).sum()])


q0 = torch.linspace(-1.0, 1.0, 4)
v = torch.tensor([1.0, 0.0, -1.0, 0.5])

val, vh = vhp(energy, q0, v)
val2, hv = hvp(energy, q0, v)
H = hessian(energy, q0)
print("energy:", round(val.item(), 6))
print("vhp:", vh)
print("hvp == vhp (symmetric H):", torch.allclose(vh, hv))
print("H @ v:", H @ v)

p0 = torch.tensor([0.3, -0.2, 0.1, 0.4])
out, (gq, gp) = vjp(field, (q0, p0), torch.tensor([1.0, 2.0, 3.0]))
print("field:", out)
print("vjp wrt q:", gq)
print("vjp wrt p:", gp)
Jq, Jp = jacobian(field, (q0, p0))
print("J_q^T u:", torch.tensor([1.0, 2.0, 3.0]) @ Jq)
out, jv = jvp(field, (q0, p0), (v, torch.ones(4)))
print("jvp:", jv)
print("J v:", Jq @ v + Jp @ torch.ones(4))

# create_graph: differentiate the vhp result with respect to the direction and the point
qq = q0.clone().requires_grad_(True)
vv = v.clone().requires_grad_(True)
_, vh = vhp(energy, qq, vv, create_graph=True)
vh.sum().backward()
print("d(sum vhp)/dq:", qq.grad)
print("d(sum vhp)/dv:", vv.grad)
print("vh requires_grad:", vh.requires_grad, type(vh.grad_fn).__name__)

# default (create_graph=False) output is detached
_, vh = vhp(energy, qq, vv)
print("detached:", vh.requires_grad)

# strict mode: an output independent of the input
def const_energy(q):
    return torch.tensor(3.0)

for name, fn in [("vjp", lambda: vjp(lambda q: q.sum() * 0 + torch.ones(1), q0, strict=True)),
                 ("hvp", lambda: hvp(lambda q: q.sum(), q0, v, strict=True)),
                 ("vhp-nonscalar", lambda: vhp(lambda q: q * 2, q0, v))]:
    try:
        fn()
        print(name, "no error")
    except RuntimeError as e:
        print(name, type(e).__name__, e)

print("non-strict hvp of linear fn:", hvp(lambda q: q.sum(), q0, v)[1])
print("vjp with None v on scalar:", vjp(energy, q0)[1])
