# jacrev / jacfwd / hessian with argnums tuples, dict (pytree) inputs, tuple outputs, has_aux and
# chunk_size, as used in research code that differentiates a physics model w.r.t. named params.
import torch
from torch.func import hessian, jacfwd, jacrev

torch.set_default_dtype(torch.float64)


def spring_energy(params, q, p):
    k, m = params["k"], params["m"]
    kinetic = (p ** 2 / (2 * m)).sum()
    potential = 0.5 * (k * (q[1:] - q[:-1]) ** 2).sum()
    return kinetic + potential, {"kin": kinetic.detach(), "pot": potential.detach()}


params = {"k": torch.tensor([1.0, 2.0, 0.5]), "m": torch.tensor([1.0, 2.0, 3.0, 4.0])}
q = torch.tensor([0.0, 0.3, 0.1, -0.2])
p = torch.tensor([0.5, -0.1, 0.2, 0.4])

(dparams, dq, dp), aux = jacrev(spring_energy, argnums=(0, 1, 2), has_aux=True)(params, q, p)
print("aux", {k: round(v.item(), 6) for k, v in aux.items()})
print("dE/dk", dparams["k"], "dE/dm", dparams["m"])
print("dE/dq", dq)
print("dE/dp", dp)

(fparams, fq, fp), aux2 = jacfwd(spring_energy, argnums=(0, 1, 2), has_aux=True)(params, q, p)
print("jacfwd agrees:", all(torch.allclose(a, b) for a, b in
                            [(fparams["k"], dparams["k"]), (fparams["m"], dparams["m"]), (fq, dq), (fp, dp)]))


def hamiltonian_flow(q, p, params):
    dHdq, dHdp = jacrev(lambda a, b: spring_energy(params, a, b)[0], argnums=(0, 1))(q, p)
    return dHdp, -dHdq  # (dq/dt, dp/dt)


Jflow = jacfwd(hamiltonian_flow, argnums=(0, 1))(q, p, params)
print("flow jacobian structure:", type(Jflow).__name__, len(Jflow), [type(r).__name__ for r in Jflow])
print("blocks:", [[tuple(b.shape) for b in row] for row in Jflow])
print("d(dp/dt)/dq =\n", Jflow[1][0])

H = hessian(lambda a, b: spring_energy(params, a, b)[0], argnums=(0, 1))(q, p)
print("hessian blocks:", [[tuple(b.shape) for b in row] for row in H])
print("d2H/dp2 diag", H[1][1].diagonal())

for chunk in (None, 1, 3):
    J = jacrev(lambda a: torch.stack([a.sin().sum(), (a ** 2).prod(), a.cumsum(0)[-1]]), chunk_size=chunk)(q)
    print("chunk_size", chunk, tuple(J.shape), f"{J.sum().item():.6f}")

Jt = jacrev(lambda a: (a * 2, a.flip(0)[:2]))(q)
print("tuple output ->", type(Jt).__name__, [tuple(j.shape) for j in Jt])
Jd = jacfwd(lambda d: {"s": d["k"].sum() * d["m"], "p": d["k"].prod()})(params)
print("dict in/out ->", {k: {kk: tuple(vv.shape) for kk, vv in v.items()} for k, v in Jd.items()})

for bad in [lambda: jacrev(spring_energy, argnums=(0, 5))(params, q, p),
            lambda: jacrev(spring_energy, argnums=())(params, q, p),
            lambda: jacrev(spring_energy, argnums=1.0)(params, q, p),
            lambda: jacrev(lambda a: (a, 3.0))(q),
            lambda: jacrev(lambda a: a.sum(), has_aux=True)(q),
            lambda: jacrev(lambda a: a.sum(), chunk_size=0)(q)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
