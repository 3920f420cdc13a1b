# "A Gentle Introduction to torch.autograd": Q = 3a^3 - b^2 with an external gradient.
import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
print(Q)

external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)

print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
print(a.grad, b.grad)

# The same through autograd.grad, without touching .grad
a2 = torch.tensor([2., 3.], requires_grad=True)
Q2 = 3 * a2 ** 3
(g,) = torch.autograd.grad(Q2, a2, grad_outputs=torch.ones_like(Q2))
print(g, a2.grad)

# Calling backward on a vector without a gradient argument is an error
try:
    (3 * a ** 3).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(Q.grad_fn, Q.grad_fn.next_functions)
