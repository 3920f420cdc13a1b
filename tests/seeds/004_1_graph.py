import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
z = y + 1.0

print(z.grad_fn)                     # the last recorded step
print(z.grad_fn.next_functions)      # what it connects back to

z.backward()                         # walk the recording backwards
print(x.grad)                        # dz/dx = 2x = 6

try:
    z.backward()                     # the recording was thrown away
except RuntimeError as err:
    print("second backward:", str(err)[:80], "...")
