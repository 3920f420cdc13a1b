import torch

w = torch.randn(256, 256, requires_grad=True)
x = torch.randn(64, 256)

y = x @ w
print("training mode:", y.requires_grad, y.grad_fn is not None)

with torch.no_grad():                 # inference / evaluation / sampling
    y = x @ w
print("inside no_grad:", y.requires_grad, y.grad_fn)

z = (x @ w).detach()                  # cut one tensor out of the graph
print("detached:", z.requires_grad)

@torch.no_grad()                      # same thing, as a decorator
def predict(inp):
    return inp @ w
print("decorated:", predict(x).requires_grad)
