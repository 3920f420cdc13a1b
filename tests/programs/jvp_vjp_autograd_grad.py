# Vector-Jacobian and Jacobian-vector products with torch.autograd.grad (the double-vjp trick).
import torch


def f(x):
    return torch.stack([x[0] * x[1], x[0].sin() + x[1] ** 2, (x[0] * x[1]).exp()])


x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
y = f(x)
print(y)

# vjp: v^T J
v = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)
(vjp,) = torch.autograd.grad(y, x, grad_outputs=v, retain_graph=True)
print(vjp)

# jvp: J u, by differentiating the vjp with respect to v
u = torch.tensor([0.3, -0.7], dtype=torch.float64)
w = torch.zeros_like(y, requires_grad=True)
(g,) = torch.autograd.grad(y, x, grad_outputs=w, create_graph=True)
(jvp,) = torch.autograd.grad(g, w, grad_outputs=u)
print(jvp)

# The full Jacobian, row by row
rows = []
for i in range(y.shape[0]):
    (row,) = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(row)
J = torch.stack(rows)
print(J)
print(torch.allclose(J @ u, jvp), torch.allclose(v @ J, vjp))

# allow_unused and a None gradient
z = torch.tensor(3.0, requires_grad=True)
out = (x ** 2).sum()
gx, gz = torch.autograd.grad(out, [x, z], allow_unused=True)
print(gx, gz)
try:
    torch.autograd.grad((x * 2).sum(), [x, z])
except RuntimeError as e:
    print("RuntimeError:", e)
