# PyTorch's "Forward-mode Automatic Differentiation" tutorial: dual tensors, a module with dual
# parameters (attribute swap and functional_call), a custom Function with jvp, gradcheck.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

primal = torch.linspace(-1, 1, 10).view(2, 5)
tangent = torch.linspace(0, 1, 10).view(2, 5)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T.contiguous().T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.ones(2, 5)
    dual_output = fn(dual_input, plain_tensor)
    print(dual_output)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
assert fwAD.unpack_dual(dual_output).tangent is None

model = nn.Linear(5, 5)
with torch.no_grad():
    model.weight.copy_(torch.arange(25.0).view(5, 5) / 25 - 0.5)
    model.bias.fill_(0.1)
input = torch.linspace(0, 1, 5).view(1, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.full_like(p, 0.5) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
    print([round(v, 4) for v in jvp.flatten().tolist()])

model = nn.Linear(5, 5)
with torch.no_grad():
    model.weight.copy_(torch.arange(25.0).view(5, 5) / 25 - 0.5)
    model.bias.fill_(0.1)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp = fwAD.unpack_dual(out).tangent
    print(jvp.shape, [round(v, 4) for v in jvp.flatten().tolist()])


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn = Fn.apply
primal = torch.linspace(-1, 1, 10, dtype=torch.double).view(2, 5).requires_grad_()
tangent = torch.linspace(0, 1, 10, dtype=torch.double).view(2, 5)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp.detach())

print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))


class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


with fwAD.dual_level():
    try:
        NoJvp.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))
    except NotImplementedError as e:
        print(type(e).__name__, e)
    try:
        fwAD.make_dual(torch.ones(2), torch.ones(3))
    except RuntimeError as e:
        print(type(e).__name__, e)
    x = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.ones(3))
    x[0] = 5.0
    x[1:].mul_(2)
    print(fwAD.unpack_dual(x))
