import torch

x = torch.tensor(3.0, requires_grad=True)   # "track every op on x"
y = x ** 2 + 2 * x                            # y = x^2 + 2x
print(y)                                      # y remembers how it was made: grad_fn

y.backward()                                  # dy/dx, computed for us
print(x.grad)                                 # 2x + 2 at x=3 -> 8
print(x.is_leaf, y.is_leaf)                   # x was created by us; y by an op
