# Homework: derive the softmax / log-softmax / layernorm Jacobians by hand, check them against
# torch.autograd.functional.jacobian and vector-Jacobian products, in float64.
import torch
from torch.autograd.functional import jacobian, vjp, jvp, hessian

z = torch.tensor([1.0, 2.0, 0.5, -1.0], dtype=torch.float64)
s = torch.softmax(z, 0)
J_manual = torch.diag(s) - torch.outer(s, s)
J_auto = jacobian(lambda t: torch.softmax(t, 0), z)
print(J_auto.shape, torch.allclose(J_manual, J_auto))
print("rows sum to zero:", torch.allclose(J_auto.sum(1), torch.zeros(4, dtype=torch.float64)))
print(J_manual.round(decimals=4))

J_log = jacobian(lambda t: torch.log_softmax(t, 0), z)
print("log-softmax J = I - 1 s^T:", torch.allclose(J_log, torch.eye(4, dtype=torch.float64) - s.expand(4, 4)))

# batched softmax backward formula: dx = s * (g - (g*s).sum)
g = torch.tensor([[0.1, -0.2, 0.3, 0.0], [1.0, 0.0, 0.0, -1.0]], dtype=torch.float64)
Z = torch.stack([z, z.flip(0)])
S = Z.softmax(-1)
dx_manual = S * (g - (g * S).sum(-1, keepdim=True))
Zr = Z.clone().requires_grad_()
Zr.softmax(-1).backward(g)
print("softmax bwd:", torch.allclose(dx_manual, Zr.grad), Zr.grad.dtype)
_, v = vjp(lambda t: t.softmax(-1), Z, g)
print("vjp:", torch.allclose(v, dx_manual))
_, jv = jvp(lambda t: t.softmax(-1), Z, g)
print("jvp shape", jv.shape, torch.allclose(jv, S * (g - (g * S).sum(-1, keepdim=True))))

# layer norm jacobian
def ln(t):
    mu = t.mean()
    var = t.var(unbiased=False)
    return (t - mu) / torch.sqrt(var + 1e-5)

Jl = jacobian(ln, z)
n = z.numel()
xhat = ln(z)
inv = 1 / torch.sqrt(z.var(unbiased=False) + 1e-5)
Jl_manual = inv / n * (n * torch.eye(n, dtype=torch.float64) - 1 - torch.outer(xhat, xhat))
print("layernorm J:", torch.allclose(Jl, Jl_manual), "symmetric:", torch.allclose(Jl, Jl.T))
print("F.layer_norm agrees:", torch.allclose(jacobian(lambda t: torch.nn.functional.layer_norm(t, (4,)), z), Jl))

# cross entropy hessian = diag(s) - s s^T
H = hessian(lambda t: torch.nn.functional.cross_entropy(t[None], torch.tensor([1])), z)
print("CE hessian:", torch.allclose(H, J_manual), H.shape)

# jacobian of a function with two inputs and vectorize
A = torch.arange(6.0, dtype=torch.float64).reshape(2, 3)
xv = torch.tensor([1.0, -1.0, 2.0], dtype=torch.float64)
Ja, Jx = jacobian(lambda a, t: torch.tanh(a @ t), (A, xv))
print(Ja.shape, Jx.shape)
print(torch.allclose(Jx, (1 - torch.tanh(A @ xv) ** 2)[:, None] * A))
print(torch.allclose(jacobian(lambda t: t.softmax(0), z, vectorize=True), J_auto))
print(jacobian(lambda t: (t ** 2).sum(), z, create_graph=True).requires_grad)
