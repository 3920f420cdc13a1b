# The PyTorch forward-mode AD tutorial pattern for modules: dual parameters via
# torch.func.functional_call, a JVP of the network output w.r.t. its weights, checked against
# reverse-mode double-vjp and finite differences in a unit test.
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
from torch.testing import assert_close

torch.set_default_dtype(torch.float64)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).reshape(p.shape) * 0.5)

x = torch.linspace(-1, 1, 6).reshape(2, 3)
params = {name: p.detach() for name, p in model.named_parameters()}
tangents = {name: torch.cos(torch.arange(p.numel(), dtype=p.dtype)).reshape(p.shape)
            for name, p in params.items()}

with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = functional_call(model, dual_params, (x,))
    primal, jvp_fwd = fwAD.unpack_dual(out)
print("primal:\n", primal)
print("jvp (forward):\n", jvp_fwd)

# the same JVP with torch.func.jvp
def f(p):
    return functional_call(model, p, (x,))

_, jvp_func = torch.func.jvp(f, (params,), (tangents,))
assert_close(jvp_func, jvp_fwd)
print("torch.func.jvp agrees")

# finite differences
eps = 1e-6
plus = f({n: p + eps * tangents[n] for n, p in params.items()})
minus = f({n: p - eps * tangents[n] for n, p in params.items()})
assert_close(jvp_fwd, (plus - minus) / (2 * eps), rtol=1e-6, atol=1e-8)
print("finite differences agree")

# dual inputs with the module's own parameters
with fwAD.dual_level():
    dx = fwAD.make_dual(x, torch.ones_like(x))
    y = model(dx)
    tangent = fwAD.unpack_dual(y).tangent
    print("d out / d x . 1:\n", tangent.detach(), "tangent requires_grad:", tangent.requires_grad)
    print("output grad_fn:", type(y.grad_fn).__name__, "requires_grad:", y.requires_grad)

# jacfwd over parameters for a single example
jac = torch.func.jacfwd(f)(params)
print({name: tuple(j.shape) for name, j in jac.items()})
torch.set_default_dtype(torch.float32)
