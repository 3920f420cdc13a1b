# Custom autograd.Function patterns from multi-task / domain-adaptation code: gradient reversal
# with setup_context (so torch.func can trace it), gradient "normalization" layers with
# once_differentiable, mark_non_differentiable outputs, needs_input_grad and set_materialize_grads.
import torch
import torch.nn as nn
from torch.autograd.function import once_differentiable


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(x, lambd):
        return x.view_as(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, lambd = inputs
        ctx.lambd = lambd

    @staticmethod
    def backward(ctx, grad_output):
        return -ctx.lambd * grad_output, None


class NormalizeGrad(torch.autograd.Function):
    """Identity forward; rescales the incoming gradient to unit norm per sample."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g / g.norm(dim=1, keepdim=True).clamp_min(1e-8)


class TopKTasks(torch.autograd.Function):
    @staticmethod
    def forward(ctx, losses, k):
        vals, idx = losses.topk(k)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        ctx.n = losses.numel()
        ctx.set_materialize_grads(False)
        return vals, idx

    @staticmethod
    def backward(ctx, g_vals, g_idx):
        idx, = ctx.saved_tensors
        print("  needs_input_grad:", ctx.needs_input_grad, "g_idx is None:", g_idx is None)
        out = torch.zeros(ctx.n, dtype=g_vals.dtype)
        out[idx] = g_vals
        return out, None


feat = torch.stack([torch.linspace(-1, 1, 5), torch.linspace(2, 0, 5)], 1).requires_grad_()
y = GradReverse.apply(feat, 0.5)
(y * torch.arange(1.0, 3.0)).sum().backward()
print("reversed grad:", feat.grad[0], y.grad_fn.__class__.__name__)

g = torch.func.grad(lambda t: (GradReverse.apply(t, 2.0) ** 2).sum())(torch.tensor([1.0, -2.0]))
print("func.grad through setup_context Function:", g)

feat.grad = None
z = NormalizeGrad.apply(feat)
(z * torch.tensor([[3.0, 4.0]])).sum().backward()
print("normalized grad rows:", feat.grad.norm(dim=1))
try:
    w = feat.detach().requires_grad_()
    gg, = torch.autograd.grad((NormalizeGrad.apply(w) ** 2).sum(), w, create_graph=True)
    gg.sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)

losses = torch.tensor([0.3, 1.2, 0.7, 2.0], requires_grad=True)
vals, idx = TopKTasks.apply(losses, 2)
print(vals, idx, idx.requires_grad)
vals.sum().backward()
print("grad only on the top-k tasks:", losses.grad)

head = nn.Linear(2, 1)
with torch.no_grad():
    head.weight.copy_(torch.tensor([[0.5, -1.0]]))
    head.bias.fill_(0.1)
shared = feat.detach().requires_grad_()
task_loss = head(shared).pow(2).mean()
adv_loss = head(GradReverse.apply(shared, 1.0)).pow(2).mean()
ga, = torch.autograd.grad(task_loss, shared, retain_graph=True)
gb, = torch.autograd.grad(adv_loss, shared)
print("reversal flips the sign:", torch.allclose(ga, -gb))
print(GradReverse.apply(shared, 1.0).grad_fn.name())
