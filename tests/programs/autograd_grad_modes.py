# "Autograd mechanics": requires_grad propagation, no_grad, enable_grad, set_grad_enabled, inference_mode.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, y.is_leaf)

with torch.no_grad():
    with torch.enable_grad():
        z = x * 2
print(z.requires_grad, z.grad_fn.name())


@torch.no_grad()
def doubler(t):
    return t * 2


print(doubler(x).requires_grad)


@torch.enable_grad()
def tripler(t):
    return t * 3


with torch.no_grad():
    print(tripler(x).requires_grad)

torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print((x * 2).requires_grad, torch.is_grad_enabled())

with torch.set_grad_enabled(False):
    print((x ** 2).requires_grad)
print(torch.is_grad_enabled())

with torch.inference_mode():
    w = x * 5
print(w.requires_grad, w.is_inference(), x.is_inference(), torch.is_inference_mode_enabled())

with torch.inference_mode(mode=False):
    v = x * 5
print(v.requires_grad)

# detach shares storage and drops history
d = x.detach()
d[0] = 10.0
print(x, d.requires_grad)
print(x.detach().requires_grad_(), x.detach().requires_grad)
