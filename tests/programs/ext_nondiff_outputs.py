# Functions with several outputs: integer outputs marked non-differentiable, set_materialize_grads(False)
# so unused outputs arrive as None, and non-tensor (Python) outputs, as in torchvision-style ops.
import torch
from torch.autograd import Function


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = torch.sort(x, dim=-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    def backward(ctx, g_values, g_idx):
        (idx,) = ctx.saved_tensors
        print("  g_idx is", None if g_idx is None else tuple(g_idx.shape))
        grad = torch.zeros_like(g_values)
        grad.scatter_(-1, idx, g_values)
        return grad


class SplitStats(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.n = x.numel()
        return x.mean(), x.max(), x.numel()

    @staticmethod
    def backward(ctx, g_mean, g_max, g_n):
        print("  grads received:", g_mean is not None, g_max is not None, g_n)
        out = torch.zeros(ctx.n)
        if g_mean is not None:
            out = out + g_mean / ctx.n
        return out


class MaterializedPair(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("  materialized:", g1, g2)
        return g1 * 2 + g2 * 3


x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)
vals, idx = SortWithIndices.apply(x)
print(vals, idx)
print(vals.requires_grad, idx.requires_grad, idx.dtype, vals.grad_fn.name())
(vals * torch.arange(3.0)).sum().backward()
print(x.grad)

v = torch.arange(4.0, requires_grad=True)
mean, mx, n = SplitStats.apply(v)
print(type(n).__name__, n, mean, mx)
mean.backward()
print(v.grad)

u = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = MaterializedPair.apply(u)
p.sum().backward()
print(u.grad)

# marking an input-derived float output non-differentiable
class Detached(Function):
    @staticmethod
    def forward(ctx, x):
        out = x.clone()
        ctx.mark_non_differentiable(out)
        return out

    @staticmethod
    def backward(ctx, g):
        return g

d = Detached.apply(u)
print(d.requires_grad, d.grad_fn)
try:
    d.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
