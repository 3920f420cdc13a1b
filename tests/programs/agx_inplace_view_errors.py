# The errors PyTorch raises for in-place ops on views: views of leaves, multi-output views
# (unbind/split/chunk), views made under no_grad, expanded tensors, and detach() sharing.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out)
    except RuntimeError as e:
        print(label, "RuntimeError:", str(e).split(". ")[0])


leaf = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
attempt("leaf view mul_", lambda: leaf[:2].mul_(2))
attempt("leaf view_ mul_", lambda: leaf.view(2, 2).mul_(2))
attempt("leaf setitem", lambda: leaf.__setitem__(0, 1.0))
with torch.no_grad():
    leaf[:2].mul_(2)
print(leaf, leaf._version)

base = leaf * 1
a, b = base.unbind(0)[:2]
attempt("unbind mul_", lambda: a.mul_(2))
s1, s2 = base.split(2)
attempt("split add_", lambda: s1.add_(1))
c1, c2 = base.chunk(2)
attempt("chunk zero_", lambda: c2.zero_())
attempt("split_with_sizes", lambda: base.split([1, 3])[1].sub_(1))
attempt("narrow ok", lambda: base.narrow(0, 1, 2).mul_(3).tolist())
print(base.grad_fn.name(), base._version)

with torch.no_grad():
    nv = base[1:]
attempt("no_grad view mul_", lambda: nv.mul_(2))

attempt("expand add_", lambda: torch.zeros(1, 3).expand(2, 3).add_(1))
attempt("expand copy_", lambda: torch.zeros(3, 1).expand(3, 2).copy_(torch.ones(3, 2)))
e = torch.zeros(2, 1).expand(2, 3).clone()
e.add_(torch.arange(3.0))
print(e)

# detach() shares storage and version with the original
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w.exp()
d = y.detach()
d.zero_()
print(y, y._version, d._version)
attempt("backward after detach edit", lambda: y.sum().backward())

# an in-place op on the base invalidates a view's saved values
x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
h = x * 2
v = h[1:]
out = v.pow(2)
h.mul_(3)
print(v, v._version, v.grad_fn.name())
attempt("pow of view after base edit", lambda: out.sum().backward())

# modifying a view after using the base is fine if nothing saved it
x.grad = None
h = x * 2
total = h.sum()
h[0].fill_(100.0)
total.backward()
print(h, x.grad)

# in-place on a tensor used in a comparison is fine
x.grad = None
h = x.clone()
mask = h > 1
h.masked_fill_(mask, 0.0)
(h * h).sum().backward()
print(h.grad_fn.name(), x.grad)
