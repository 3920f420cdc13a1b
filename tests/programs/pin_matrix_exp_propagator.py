# Linear ODE dx/dt = A x solved exactly with the propagator torch.linalg.matrix_exp(t A):
# gradients of a terminal cost w.r.t. A and t (adjoint sensitivity check against finite
# differences), energy conservation for a skew-symmetric generator, tensorsolve/tensorinv for a
# steady state of a 2-D grid operator.
import torch

torch.set_default_dtype(torch.float64)

A = torch.tensor([[-0.5, 1.0, 0.0],
                  [-1.0, -0.2, 0.3],
                  [0.0, -0.3, -0.1]], requires_grad=True)
t = torch.tensor(1.5, requires_grad=True)
x0 = torch.tensor([1.0, 0.0, -0.5])

Phi = torch.linalg.matrix_exp(t * A)
xT = Phi @ x0
cost = 0.5 * (xT ** 2).sum()
cost.backward()
print("x(T):", xT.detach())
print(f"cost: {cost.item():.6f}")
print("dcost/dA:", A.grad)
print(f"dcost/dt: {t.grad.item():.6f}")

# d cost / dt analytically: x(T)^T A x(T)
with torch.no_grad():
    print(f"analytic dcost/dt: {(xT @ A @ xT).item():.6f}")


# finite differences on one entry of A
def cost_of(Am):
    return 0.5 * (torch.linalg.matrix_exp(1.5 * Am) @ x0).pow(2).sum()


eps = 1e-6
E = torch.zeros(3, 3)
E[1, 2] = 1.0
with torch.no_grad():
    fd = (cost_of(A + eps * E) - cost_of(A - eps * E)) / (2 * eps)
print("fd vs autograd agree:", abs(fd.item() - A.grad[1, 2].item()) < 1e-7)

# skew-symmetric generator -> orthogonal propagator -> norm conserved
W = torch.tensor([[0.0, 2.0, -1.0], [-2.0, 0.0, 0.5], [1.0, -0.5, 0.0]])
R = torch.linalg.matrix_exp(W)
print("orthogonal:", torch.allclose(R.T @ R, torch.eye(3)), f"det={torch.linalg.det(R).item():.6f}")
batch = torch.linalg.matrix_exp(torch.stack([W * s for s in torch.linspace(0, 1, 4)]))
print("batched shape:", tuple(batch.shape), "first is identity:", torch.allclose(batch[0], torch.eye(3)))
print("semigroup property:", torch.allclose(batch[1] @ batch[1] @ batch[1], batch[3]))
print("grad_fn:", type(torch.linalg.matrix_exp(A).grad_fn).__name__)

# tensorsolve: grid operator acting on (n, n) fields, stored as (n, n, n, n)
n = 3
Lop = torch.zeros(n, n, n, n)
for i in range(n):
    for j in range(n):
        Lop[i, j, i, j] = 4.5
        for di, dj in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
            if 0 <= i + di < n and 0 <= j + dj < n:
                Lop[i, j, i + di, j + dj] = -1.0
src = torch.outer(torch.arange(1.0, n + 1), torch.ones(n)).requires_grad_(True)
field = torch.linalg.tensorsolve(Lop, src)
print("field:", field.detach())
Linv = torch.linalg.tensorinv(Lop, ind=2)
print("tensorinv shape:", tuple(Linv.shape), "consistent:",
      torch.allclose(torch.tensordot(Linv, src.detach(), dims=2), field.detach()))
field.sum().backward()
print("d sum(field) / d src:", src.grad)
