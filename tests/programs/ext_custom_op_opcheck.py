# The "Python custom operators" tutorial flow: define an op with torch.library.custom_op,
# test it with torch.library.opcheck before and after adding register_fake / register_autograd,
# and the aliasing rule for outputs.
import numpy as np
import torch
from torch import Tensor


def check(op, args, **kw):
    try:
        result = torch.library.opcheck(op, args, **kw)
        print("opcheck:", sorted(result.items()))
    except Exception as e:
        print("opcheck failed:", str(e).split(" (scroll")[0])


@torch.library.custom_op("tut::crop_sum", mutates_args=())
def crop_sum(x: Tensor, k: int) -> Tensor:
    a = x.numpy()
    return torch.from_numpy(np.ascontiguousarray(a[..., :k].sum(-1)))


x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print(crop_sum(x, 2))
check(crop_sum, (x, 2))


@crop_sum.register_fake
def _(x, k):
    return x.new_empty(x.shape[:-1])


check(crop_sum, (x, 2))
xg = x.clone().requires_grad_()
check(crop_sum, (xg, 2))


def setup_context(ctx, inputs, output):
    x, k = inputs
    ctx.k = k
    ctx.in_shape = x.shape


def backward(ctx, grad):
    g = grad.new_zeros(ctx.in_shape)
    g[..., : ctx.k] = grad.unsqueeze(-1)
    return g, None


crop_sum.register_autograd(backward, setup_context=setup_context)
check(crop_sum, (xg, 2))
crop_sum(xg, 3).sum().backward()
print(xg.grad)
print(torch.autograd.gradcheck(lambda t: crop_sum(t, 3), (torch.linspace(0, 1, 8, dtype=torch.double).reshape(2, 4).requires_grad_(),)))


# a fake that gets the dtype wrong
@torch.library.custom_op("tut::to_double", mutates_args=())
def to_double(x: Tensor) -> Tensor:
    return x.double() * 2


@to_double.register_fake
def _(x):
    return torch.empty_like(x)


check(to_double, (x,))
check(to_double, (x,), test_utils="test_schema")


# mutating an argument that was not declared
@torch.library.custom_op("tut::sneaky", mutates_args=())
def sneaky(x: Tensor) -> Tensor:
    x.mul_(2)
    return x + 1


@sneaky.register_fake
def _(x):
    return torch.empty_like(x)


check(sneaky, (torch.ones(2),))


# declared properly
@torch.library.custom_op("tut::double_", mutates_args=("x",))
def double_(x: Tensor) -> None:
    x.mul_(2)


@double_.register_fake
def _(x):
    return None


buf = torch.ones(3)
double_(buf)
print(buf)
check(double_, (torch.ones(2),))
print(check(torch.ops.tut.double_.default, (torch.ones(2),), raise_exception=False))
