# autograd.Function details: needs_input_grad, non-tensor args, mark_non_differentiable, straight-through.
import torch


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.max(dim=0)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        ctx.shape = x.shape
        return values, idx

    @staticmethod
    def backward(ctx, grad_values, grad_idx):
        idx, = ctx.saved_tensors
        grad = torch.zeros(ctx.shape, dtype=grad_values.dtype)
        grad[idx, torch.arange(ctx.shape[1])] = grad_values
        return grad


x = torch.tensor([[1., 2.], [3., -1.]], dtype=torch.double, requires_grad=True)
w = torch.tensor([[0.5, -0.5], [1., 2.], [0., 1.]], dtype=torch.double, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], dtype=torch.double)
print(LinearFunction.apply(x, w, b))
print(torch.autograd.gradcheck(LinearFunction.apply, (x, w, b), eps=1e-6, atol=1e-4))
out = MulConstant.apply(x, 3.0)
out.sum().backward()
print(out.grad_fn.name(), x.grad)
vals, idx = SortWithIndices.apply(torch.tensor([[1., 5.], [4., 2.]], requires_grad=True))
print(vals, idx, idx.requires_grad, vals.grad_fn.name())


def straight_through_round(t):
    return t + (t.round() - t).detach()


y = torch.tensor([0.2, 1.7, -0.6], requires_grad=True)
r = straight_through_round(y)
(r * torch.tensor([1., 2., 3.])).sum().backward()
print(r, y.grad)
