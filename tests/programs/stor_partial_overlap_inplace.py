# Forum question "unsupported operation: some elements of the input tensor and the written-to
# tensor refer to a single memory location": in-place ops whose input aliases the output.
import torch

def attempt(name, fn):
    try:
        out = fn()
        print(name, "ok", out.tolist() if out is not None else None)
    except RuntimeError as e:
        print(name, "->", type(e).__name__, e)

a = torch.arange(5.0)
attempt("shift copy_", lambda: a[1:].copy_(a[:-1]))
a = torch.arange(5.0)
attempt("shift add_", lambda: a[1:].add_(a[:-1]))
a = torch.arange(5.0)
attempt("same add_", lambda: a.add_(a))
a = torch.arange(5.0)
attempt("full alias mul_", lambda: a.mul_(a[:]))
m = torch.arange(9.0).view(3, 3)
attempt("add_ transpose", lambda: m.add_(m.t()))
m = torch.arange(9.0).view(3, 3)
attempt("copy_ transpose", lambda: m.copy_(m.t()))
m = torch.arange(9.0).view(3, 3)
attempt("setitem overlap", lambda: m.__setitem__((slice(1, None),), m[:-1]))
m = torch.arange(9.0).view(3, 3)
attempt("out= alias", lambda: torch.add(m[0], 1, out=m[1]))
m = torch.arange(4.0)
attempt("index_copy_", lambda: m.index_copy_(0, torch.tensor([0, 1]), m[2:]))
m = torch.arange(4.0)
attempt("clone fix", lambda: m[1:].copy_(m[:-1].clone()))
x = torch.arange(6.0)
attempt("sub_ flip", lambda: x.sub_(x.flip(0)))
x = torch.arange(6.0)
attempt("sub_ flip clone", lambda: x.sub_(x.flip(0).clone()))
y = torch.arange(6.0).view(2, 3)
attempt("relu_ view", lambda: y[:, 1:].relu_())
print(y)
e = torch.zeros(2, 1).expand(2, 3)
attempt("expanded out=", lambda: torch.add(torch.ones(2, 3), 1, out=e))
z = torch.arange(4.0)
attempt("clamp_ aliased min", lambda: z[1:].clamp_(min=z[:-1]))
