# The older torch.library registration style still found in library repos: a Library("ns", "DEF")
# with schema strings, kernels given by Library.impl / torch.library.impl, an "Autograd" kernel
# built from an autograd.Function, Meta kernels, and calls through torch.ops.
import numpy as np
import torch

lib = torch.library.Library("extold", "DEF")
print(lib.define("clamp_sq(Tensor x, float lo=0.0) -> Tensor"))
lib.define("axpy_(Tensor(a!) y, Tensor x, *, float alpha=1.0) -> ()")
torch.library.define("extold::row_norm", "(Tensor x) -> Tensor")


def clamp_sq_cpu(x, lo=0.0):
    return torch.from_numpy(np.maximum(x.numpy(), lo) ** 2)


lib.impl("clamp_sq", clamp_sq_cpu, "CPU")
lib.impl("clamp_sq", lambda x, lo=0.0: torch.empty_like(x), "Meta")


class ClampSq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo):
        ctx.save_for_backward(x)
        ctx.lo = lo
        return clamp_sq_cpu(x.detach(), lo)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * x.clamp(min=ctx.lo) * (x > ctx.lo).to(g.dtype), None


lib.impl("clamp_sq", lambda x, lo=0.0: ClampSq.apply(x, lo), "Autograd")


def axpy_(y, x, *, alpha=1.0):
    y.add_(x, alpha=alpha)


lib.impl("axpy_", axpy_, "CompositeExplicitAutograd")


@torch.library.impl("extold::row_norm", "cpu")
def row_norm(x):
    return (x * x).sum(-1).sqrt()  # composite: autograd records these ops


x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = torch.ops.extold.clamp_sq(x)
print(y, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
print(torch.ops.extold.clamp_sq(torch.tensor([-1.0, 0.5]), 0.25))
print(torch.ops.extold.clamp_sq.default(torch.tensor([3.0]), lo=1.0))
print(torch.ops.extold.clamp_sq)

buf = torch.zeros(3)
torch.ops.extold.axpy_(buf, torch.ones(3), alpha=0.5)
torch.ops.extold.axpy_(buf, torch.arange(3.0))
print(buf)

m = torch.tensor([[3.0, 4.0], [6.0, 8.0]], requires_grad=True)
n = torch.ops.extold.row_norm(m)
print(n, n.grad_fn.name())
n.sum().backward()
print(m.grad)

# register an autograd formula by name for an op defined with a schema
torch.library.register_autograd(
    "extold::row_norm",
    lambda ctx, g: g.unsqueeze(-1) * ctx.x / ctx.n.unsqueeze(-1),
    setup_context=lambda ctx, inputs, output: setattr(ctx, "x", inputs[0]) or setattr(ctx, "n", output),
)
m.grad = None
n2 = torch.ops.extold.row_norm(m)
print(type(n2.grad_fn).__name__)
n2.sum().backward()
print(m.grad)
