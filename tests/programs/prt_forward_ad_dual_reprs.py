# Forward-mode AD tutorial: printing dual tensors (tangent=... suffix), unpack_dual named tuples,
# JVPs of 0-d and 1-d outputs, and tangents with requires_grad primals.
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.linspace(0.0, 1.0, 4)
tangent = torch.ones(4)
with fwAD.dual_level():
    x = fwAD.make_dual(primal, tangent)
    print(x)
    y = x.sin() * 2
    print(y)
    out = fwAD.unpack_dual(y)
    print(out)
    print(out.primal, out.tangent)
    s = (x ** 2).sum()
    print(s)
    print(fwAD.unpack_dual(s).tangent)
    w = fwAD.make_dual(torch.tensor(3.0, requires_grad=True), torch.tensor(1.0))
    print(w)
    print(w * w)
    print(torch.exp(w).log())
    m = fwAD.make_dual(torch.arange(6.).view(2, 3), torch.eye(2, 3))
    print(m @ torch.ones(3, 1))
print(fwAD.unpack_dual(x))
