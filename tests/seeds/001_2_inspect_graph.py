x = torch.tensor(3.0, requires_grad=True)
y = x * x + 2 * x
print(y.grad_fn)      # the operation that produced y
y.backward()
print(x.grad)         # dy/dx = 2x + 2 = 8 at x = 3
