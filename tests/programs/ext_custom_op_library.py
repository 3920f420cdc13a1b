# The PyTorch 2.4+ custom-op API: torch.library.custom_op wrapping a numpy kernel, with
# register_fake (shape propagation) and register_autograd (setup_context + backward).
import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("mylib::numpy_sin", mutates_args=())
def numpy_sin(x: Tensor) -> Tensor:
    x_np = x.cpu().numpy()
    return torch.from_numpy(np.sin(x_np))


@numpy_sin.register_fake
def _(x):
    return torch.empty_like(x)


def setup_context(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)


def backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * x.cos()


numpy_sin.register_autograd(backward, setup_context=setup_context)


@torch.library.custom_op("mylib::scaled_add", mutates_args=())
def scaled_add(x: Tensor, y: Tensor, alpha: float) -> Tensor:
    return torch.from_numpy(x.numpy() + alpha * y.numpy())


@scaled_add.register_fake
def _(x, y, alpha):
    return torch.empty_like(x)


def scaled_add_setup(ctx, inputs, output):
    ctx.alpha = inputs[2]


def scaled_add_backward(ctx, grad):
    return grad, grad * ctx.alpha, None


scaled_add.register_autograd(scaled_add_backward, setup_context=scaled_add_setup)


x = torch.linspace(0, 1.5, 4, requires_grad=True)
y = numpy_sin(x)
print(y)
print(torch.allclose(y, x.sin()))
y.sum().backward()
print(x.grad)
print(torch.allclose(x.grad, x.cos()))

# also reachable through torch.ops
z = torch.ops.mylib.numpy_sin(torch.tensor([0.0, 1.0]))
print(z)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = scaled_add(a, b, 0.5)
print(out)
(out * torch.tensor([1.0, 10.0])).sum().backward()
print(a.grad, b.grad)

# gradcheck through the op (double)
xd = torch.tensor([0.1, 0.7, 1.3], dtype=torch.double, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(numpy_sin, (xd,)))

# a mutating custom op: writes into its argument
@torch.library.custom_op("mylib::numpy_fill_", mutates_args=("out",))
def numpy_fill_(out: Tensor, value: float) -> None:
    out.numpy()[...] = value


buf = torch.zeros(3)
numpy_fill_(buf, 2.5)
print(buf)

# an op without autograd registered, used on a tensor that requires grad
@torch.library.custom_op("mylib::numpy_cube", mutates_args=())
def numpy_cube(x: Tensor) -> Tensor:
    return torch.from_numpy(x.numpy() ** 3)


r = numpy_cube(torch.tensor([2.0]))
print(r)
try:
    numpy_cube(torch.tensor([2.0], requires_grad=True)).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:90])
