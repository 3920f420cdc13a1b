# torch.compile as a decorator on tensor functions: values, gradients, changing shapes, no_grad.
import torch


@torch.compile
def gelu_mlp(x, w, b):
    h = x @ w + b
    return torch.tanh(h) * 0.5 + h.sigmoid()


w = (torch.arange(12, dtype=torch.float32).view(3, 4) - 6.0) * 0.1
b = torch.tensor([0.3, -0.1, 0.25, 0.05])
x = torch.linspace(-1.0, 1.0, 6).view(2, 3)
out = gelu_mlp(x, w, b)
print(out.shape)
print(out)
print(torch.allclose(out, torch.tanh(x @ w + b) * 0.5 + (x @ w + b).sigmoid()))

# changing batch size
for n in (1, 3, 5):
    xs = torch.arange(n * 3, dtype=torch.float32).view(n, 3) * 0.05
    y = gelu_mlp(xs, w, b)
    print(n, tuple(y.shape), round(y.sum().item(), 4))

# gradients through the compiled function
wg = w.clone().requires_grad_(True)
loss = gelu_mlp(x, wg, b).pow(2).mean()
loss.backward()
print(round(loss.item(), 5))
print(wg.grad)

with torch.no_grad():
    y = gelu_mlp(x, wg, b)
print(y.requires_grad, y.grad_fn is None)
