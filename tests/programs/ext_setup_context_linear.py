# A custom linear layer written as in PyTorch's "Extending PyTorch" notes: a split-style
# autograd.Function (forward + setup_context), needs_input_grad, wrapped in an nn.Module.
import torch
import torch.nn as nn
from torch.autograd import Function, gradcheck


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias=None):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        print("  needs_input_grad:", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features)) if bias else None
        with torch.no_grad():
            self.weight.copy_(torch.linspace(-0.5, 0.5, out_features * in_features)
                              .reshape(out_features, in_features))
            if self.bias is not None:
                self.bias.copy_(torch.arange(out_features, dtype=torch.float32) * 0.1)

    def forward(self, x):
        return LinearFunction.apply(x, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.weight.shape[1]}, out_features={self.weight.shape[0]}, bias={self.bias is not None}"


layer = MyLinear(4, 3)
print(layer)
x = torch.arange(8, dtype=torch.float32).reshape(2, 4) / 4
out = layer(x)
print(out)
print(out.grad_fn)
out.pow(2).sum().backward()
print("weight.grad", layer.weight.grad)
print("bias.grad", layer.bias.grad)

# input that requires grad, no bias
layer2 = MyLinear(4, 2, bias=False)
xi = x.clone().requires_grad_()
layer2(xi).sum().backward()
print("x.grad", xi.grad)

# gradcheck in double precision, as the tutorial recommends
inp = (torch.linspace(-1, 1, 6, dtype=torch.double).reshape(2, 3).requires_grad_(),
       torch.linspace(0, 1, 12, dtype=torch.double).reshape(4, 3).requires_grad_())
print("gradcheck:", gradcheck(LinearFunction.apply, inp, eps=1e-6, atol=1e-4))

# compare with nn.functional.linear
ref = torch.nn.functional.linear(x, layer.weight, layer.bias)
print("matches F.linear:", torch.allclose(ref, out))

opt = torch.optim.SGD(layer.parameters(), lr=0.1)
target = torch.ones(2, 3)
for step in range(6):
    opt.zero_grad()
    loss = ((layer(x) - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
