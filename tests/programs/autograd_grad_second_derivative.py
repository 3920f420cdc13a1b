# torch.autograd.grad with create_graph=True: second derivatives of scalar functions, as in the
# common Q&A answer, plus Newton's method driven by them.
import math

import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy_dx, = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx)                     # 3x^2 = 12, and it has a grad_fn
d2y_dx2, = torch.autograd.grad(dy_dx, x)
print(d2y_dx2, d2y_dx2.requires_grad)

# sin: the second derivative is -sin
t = torch.tensor(math.pi / 6, requires_grad=True)
s = torch.sin(t)
g1 = torch.autograd.grad(s, t, create_graph=True)[0]
g2 = torch.autograd.grad(g1, t, create_graph=True)[0]
g3 = torch.autograd.grad(g2, t)[0]
print(f"{g1.item():.6f} {g2.item():.6f} {g3.item():.6f} {math.cos(math.pi / 6):.6f}")
print(g1.requires_grad, g2.requires_grad, g3.requires_grad)

# Elementwise second derivatives: differentiate the sum of first derivatives
u = torch.linspace(-1.0, 1.0, 5, requires_grad=True)
f = torch.tanh(u)
df, = torch.autograd.grad(f.sum(), u, create_graph=True)
d2f, = torch.autograd.grad(df.sum(), u)
print(df)
print(d2f)
print(torch.allclose(d2f, -2 * torch.tanh(u) * (1 - torch.tanh(u) ** 2)))

# Two inputs: mixed partials of f(a, b) = a^2 b + b^3
a = torch.tensor(1.5, requires_grad=True)
b = torch.tensor(-0.5, requires_grad=True)
out = a ** 2 * b + b ** 3
da, db = torch.autograd.grad(out, (a, b), create_graph=True)
print(da, db)
daa, dab = torch.autograd.grad(da, (a, b), retain_graph=True)
dba, dbb = torch.autograd.grad(db, (a, b))
print(daa, dab, dba, dbb)

# The first derivative is an ordinary graph node: backward() through it accumulates into .grad
w = torch.tensor([0.5, -1.0], requires_grad=True)
loss = (w.exp() * w).sum()
gw, = torch.autograd.grad(loss, w, create_graph=True)
print(gw.is_leaf, w.grad)
gw.pow(2).sum().backward()
print(w.grad)

# Without create_graph the gradient is a constant
gw_const, = torch.autograd.grad((w ** 2).sum(), w)
print(gw_const, gw_const.requires_grad, gw_const.grad_fn)
try:
    torch.autograd.grad(gw_const.sum(), w)
except RuntimeError as e:
    print("RuntimeError:", e)

# Newton's method for the minimum of f(z) = z^4 - 3 z^2 + z, using f' and f''
z = torch.tensor(2.0, requires_grad=True)
for step in range(6):
    fz = z ** 4 - 3 * z ** 2 + z
    d1, = torch.autograd.grad(fz, z, create_graph=True)
    d2, = torch.autograd.grad(d1, z)
    with torch.no_grad():
        z -= d1 / d2
    print(step, f"{z.item():.6f} {fz.item():.6f} {d1.item():.6f}")
print(z.requires_grad, z.is_leaf, z.grad)

# Second derivative of a network output with respect to its input (a physics-informed loss)
net = torch.nn.Sequential(torch.nn.Linear(1, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[0.5], [-1.0], [1.5], [0.3]]))
    net[0].bias.copy_(torch.tensor([0.1, 0.0, -0.2, 0.4]))
    net[2].weight.copy_(torch.tensor([[1.0, 0.5, -0.5, 2.0]]))
    net[2].bias.fill_(0.0)
xs = torch.linspace(0.0, 1.0, 4).reshape(-1, 1).requires_grad_()
ys = net(xs)
dys, = torch.autograd.grad(ys, xs, grad_outputs=torch.ones_like(ys), create_graph=True)
d2ys, = torch.autograd.grad(dys, xs, grad_outputs=torch.ones_like(dys), create_graph=True)
residual = (d2ys + ys).pow(2).mean()
residual.backward()
print(dys.squeeze())
print(d2ys.squeeze())
print(residual, net[0].weight.grad.squeeze(), net[2].bias.grad)
