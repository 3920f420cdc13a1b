# "Autograd mechanics": no_grad vs inference_mode vs detach vs .data, and the errors each one gives.
import torch


def attempt(label, fn):
    try:
        result = fn()
        print(label, "->", result)
    except RuntimeError as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

# Factory functions still honour requires_grad=True under no_grad
with torch.no_grad():
    fresh = torch.ones(3, requires_grad=True)
    y = x * 2
print(fresh.requires_grad, fresh.is_leaf, y.requires_grad, y.is_leaf)

# A no_grad result is an ordinary tensor: it can start a new graph and be changed in place
y.requires_grad_()
(y * y).sum().backward()
print(y.grad, x.grad)
with torch.no_grad():
    y.add_(1)
print(y)

# Inference tensors are stricter
with torch.inference_mode():
    inf = torch.ones(3)
    spare = torch.ones(3)   # refused in-place updates below go to this one: PyTorch writes
    inf2 = x * 2            # before it refuses, tapegrad refuses before it writes
    inf.mul_(3)                 # fine inside inference mode
    view_of_normal = x.detach().view(3)
print(inf, inf2, inf.is_inference(), inf2.is_inference(), inf2.requires_grad)
print(view_of_normal.is_inference())
attempt("inplace outside", lambda: spare.add_(1))
attempt("requires_grad_", lambda: inf.requires_grad_())
attempt("save for backward", lambda: (inf * x).sum().backward())
attempt("use without saving", lambda: (inf + x).sum())
normal = inf.clone()
print(normal.is_inference(), normal.add_(1))
normal.requires_grad_()
(normal * x).sum().backward()
print(normal.grad, x.grad)


@torch.inference_mode()
def predict(t):
    return t.exp()


print(predict(x).is_inference(), torch.is_inference_mode_enabled())

# .data vs .detach(): same storage, but only detach() shares the version counter
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
out.sum().backward()
print(out, a.grad)      # wrong gradient, silently: autograd never saw the change

a.grad = None
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out._version, c._version, c.requires_grad)
attempt("detach + in-place", lambda: out.sum().backward())

# detach_() turns a non-leaf into a leaf in place
h = a * 3
print(h.is_leaf, h.grad_fn is None)
h.detach_()
print(h.is_leaf, h.grad_fn, h.requires_grad)

# requires_grad can only be flipped on leaves
g = a * 2
attempt("non-leaf flag", lambda: setattr(g, "requires_grad", False))
print(g.detach().requires_grad, g.requires_grad)
frozen = torch.tensor([1.0, 2.0])
frozen.requires_grad = True
print(frozen.requires_grad, frozen.is_leaf)
