# Higher-order derivatives: gradient of a gradient, Hessian-vector products, the full Hessian.
import torch

x = torch.tensor([1.0, 2.0, -0.5], dtype=torch.float64, requires_grad=True)


def f(x):
    return (x[0] ** 2) * x[1] + torch.sin(x[1] * x[2]) + x.pow(4).sum() / 4


y = f(x)
(grad,) = torch.autograd.grad(y, x, create_graph=True)
print(grad)
print(grad.requires_grad, grad.grad_fn is not None)

v = torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64)
(hvp,) = torch.autograd.grad(grad, x, grad_outputs=v, retain_graph=True)
print(hvp)

H = torch.stack([torch.autograd.grad(grad[i], x, retain_graph=True)[0] for i in range(3)])
print(H)
print(torch.allclose(H, H.t()), torch.allclose(H @ v, hvp))

# Third derivative of a scalar function
t = torch.tensor(0.7, requires_grad=True)
s = t ** 4
(d1,) = torch.autograd.grad(s, t, create_graph=True)
(d2,) = torch.autograd.grad(d1, t, create_graph=True)
(d3,) = torch.autograd.grad(d2, t)
print(d1, d2, d3)

# backward(create_graph=True) then a second backward
z = torch.tensor([1.0, 3.0], requires_grad=True)
loss = (z.tanh() ** 2).sum()
loss.backward(create_graph=True)
gnorm = z.grad.pow(2).sum()
print(z.grad)
z.grad = None
gnorm.backward()
print(z.grad)
