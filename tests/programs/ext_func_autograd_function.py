# "Extending torch.func with autograd.Function": a setup_context-style Function used under
# torch.func.grad, jacrev and vmap (generate_vmap_rule=True), next to plain backward.
import torch
from torch.autograd import Function


class NumpyTanh(Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.tanh(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * (1 - y * y)


def f(x):
    return NumpyTanh.apply(x).sum()


x = torch.tensor([0.0, 0.5, -1.0])
print("grad", torch.func.grad(f)(x))
print("jacrev", torch.func.jacrev(NumpyTanh.apply)(x))
batch = torch.linspace(-1, 1, 6).reshape(3, 2)
print("vmap", torch.func.vmap(NumpyTanh.apply)(batch))
print("vmap(grad)", torch.func.vmap(torch.func.grad(f))(batch))

xr = x.clone().requires_grad_()
f(xr).backward()
print("backward", xr.grad)
print(torch.allclose(xr.grad, torch.func.grad(f)(x)))
