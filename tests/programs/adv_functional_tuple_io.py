# torch.autograd.functional with tuple inputs/outputs as in influence-function and curvature code:
# jacobian of multi-output functions, hessian of a two-argument loss, vjp/jvp/hvp/vhp with tuples,
# scalar inputs with v omitted, and the type errors users hit.
import torch
import torch.autograd.functional as AF

torch.set_printoptions(precision=4)


def two_out(a, b):
    return a * b.sum(), torch.cat([a, b]).exp()


a = torch.tensor([0.5, -1.0])
b = torch.tensor([1.0, 2.0, 0.25])
J = AF.jacobian(two_out, (a, b))
print(type(J).__name__, len(J), type(J[0]).__name__, [[tuple(t.shape) for t in row] for row in J])
print(J[0][1])
print(J[1][0])
Jv = AF.jacobian(two_out, (a, b), vectorize=True)
print(all(torch.allclose(p, q) for r1, r2 in zip(J, Jv) for p, q in zip(r1, r2)))

# single-input, tuple output
J1 = AF.jacobian(lambda z: (z.sum(), z ** 2), a)
print(type(J1).__name__, J1[0], J1[1])
# tuple input of length one keeps tuple structure
J2 = AF.jacobian(lambda z: z ** 2, (a,))
print(type(J2).__name__, J2[0])


def nll(w, bias):
    X = torch.stack([torch.linspace(-1, 1, 6), torch.cos(torch.arange(6.0))], 1)
    y = torch.tensor([0.0, 1.0, 0.0, 1.0, 1.0, 0.0])
    logits = X @ w + bias
    return torch.nn.functional.binary_cross_entropy_with_logits(logits, y)


w = torch.tensor([0.3, -0.7])
bias = torch.tensor(0.2)
H = AF.hessian(nll, (w, bias))
print([[tuple(t.shape) for t in row] for row in H])
print(H[0][0], H[1][1], H[0][1])
Hv = AF.hessian(nll, (w, bias), vectorize=True)
print(torch.allclose(Hv[0][0], H[0][0]), torch.allclose(Hv[1][0], H[1][0]))

# scalar input: v may be omitted for vjp / jvp when shapes are 1-element
s = torch.tensor(1.5)
print(AF.vjp(lambda t: t.sin(), s))
print(AF.jvp(lambda t: t ** 3, s))
print(AF.hvp(lambda t: t ** 4, s, torch.tensor(1.0)))

# tuple inputs for hvp / vhp (v must match)
val, hv = AF.hvp(nll, (w, bias), (torch.ones(2), torch.tensor(1.0)))
print(f"{val.item():.4f}", hv)
val, vh = AF.vhp(nll, (w, bias), (torch.ones(2), torch.tensor(1.0)))
print(all(torch.allclose(p, q) for p, q in zip(hv, vh)))
out, vjps = AF.vjp(two_out, (a, b), (torch.ones(2), torch.ones(5)))
print(vjps)
out, jvps = AF.jvp(two_out, (a, b), (torch.ones(2), torch.zeros(3)))
print(jvps)

errors = [
    lambda: AF.vjp(lambda t: t * 2, a),
    lambda: AF.jacobian(lambda t: [t], a),
    lambda: AF.jacobian(lambda t: t.tolist(), a),
    lambda: AF.hvp(nll, (w, bias), torch.ones(2)),
    lambda: AF.jvp(two_out, (a, b), (torch.ones(3), torch.zeros(3))),
    lambda: AF.jacobian(two_out, [a, "b"]),
    lambda: AF.hessian(nll, (w, bias), outer_jacobian_strategy="sideways"),
]
for fn in errors:
    try:
        r = fn()
        print("ok", type(r).__name__)
    except Exception as e:
        print(type(e).__name__, e)
