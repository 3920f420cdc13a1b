import torch

x = torch.tensor([2.0], requires_grad=True)
y = x ** 3

print("x        :", x)
print("y = x**3 :", y)
print("y.grad_fn:", y.grad_fn)

y.backward()
print("dy/dx at x=2:", x.grad.item())
