# Unit tests of the forward-AD API surface (torch.autograd.forward_ad): level arguments, tangent
# layouts, in-place ops and views on dual tensors, what detach/no_grad keep, errors.
import torch
import torch.autograd.forward_ad as fwAD


def check(name, fn):
    try:
        print(f"{name}: {fn()}")
    except (RuntimeError, ValueError) as e:
        print(f"{name}: {type(e).__name__}: {e}")


check("make_dual level=3 outside", lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=3))
check("make_dual level=0 outside", lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=0))
check("unpack_dual outside", lambda: fwAD.unpack_dual(torch.ones(2), level=0))
with fwAD.dual_level() as level:
    print("entered level", level)
    p = torch.tensor([1.0, 2.0, 3.0])
    d = fwAD.make_dual(p.clone(), torch.tensor([1.0, 0.0, -1.0]))
    check("unpack level=1", lambda: fwAD.unpack_dual(d, level=1))
    check("unpack level=-1", lambda: fwAD.unpack_dual(d, level=-1))
    check("make level=1", lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=1))
    check("make level=-1", lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=-1))
    check("make twice", lambda: fwAD.make_dual(d, torch.ones(3)))
    check("int tangent", lambda: fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.long)))
    check("int primal", lambda: fwAD.make_dual(torch.ones(2, dtype=torch.long), torch.ones(2)))

    primal = torch.ones(2, 3).t()
    dual = fwAD.make_dual(primal, torch.arange(6.0).reshape(3, 2))
    tangent = fwAD.unpack_dual(dual).tangent
    print("transposed primal:", primal.stride(), "tangent:", tangent.stride(), tangent.tolist())
    dual = fwAD.make_dual(torch.ones(3), torch.arange(6.0)[::2])
    print("strided tangent copied:", fwAD.unpack_dual(dual).tangent.stride())

    check("in-place mul", lambda: fwAD.unpack_dual(d.mul_(2)))
    base = torch.zeros(3)
    base[1:] = d[:2]
    check("setitem into plain tensor", lambda: fwAD.unpack_dual(base).tangent)
    check("view", lambda: fwAD.unpack_dual(d.view(3, 1)).tangent.shape)
    check("no_grad keeps tangent", lambda: fwAD.unpack_dual(torch.no_grad()(lambda: d * 3)()).tangent)
    check("detach drops tangent", lambda: fwAD.unpack_dual(d.detach()).tangent)
    check("clone", lambda: fwAD.unpack_dual(d.clone()).tangent)
    check("to float64", lambda: fwAD.unpack_dual(d.double()).tangent)
    check("sort", lambda: fwAD.unpack_dual(d.sort(descending=True).values).tangent)
    check("where", lambda: fwAD.unpack_dual(torch.where(d > 3, d, -d)).tangent)
    check("argmax", lambda: fwAD.unpack_dual(d.argmax()).tangent)
    check("comparison", lambda: fwAD.unpack_dual(d > 2).tangent)
    check("repr", lambda: repr(d))
check("after exit", lambda: fwAD.unpack_dual(d))
try:
    fwAD.exit_dual_level()
except RuntimeError as e:
    print("exit without level:", e)
lvl = fwAD.enter_dual_level()
try:
    fwAD.exit_dual_level(level=lvl + 1)
except RuntimeError as e:
    print("exit wrong level:", e)
fwAD.exit_dual_level(level=lvl)
print("clean exit")
