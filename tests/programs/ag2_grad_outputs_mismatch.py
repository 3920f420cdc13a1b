# torch.autograd.grad / Tensor.backward with explicit gradients: the shape/dtype/count errors
# people paste into forum posts, batched-like grad_outputs done by hand, and None entries.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * x + 1


def attempt(label, fn):
    try:
        out = fn()
        print(label, out)
    except (RuntimeError, TypeError, ValueError) as e:
        print(label, type(e).__name__ + ":", e)


attempt("ok", lambda: torch.autograd.grad(y, x, torch.ones(2, 2), retain_graph=True))
attempt("wrong shape", lambda: torch.autograd.grad(y, x, torch.ones(4), retain_graph=True))
attempt("wrong shape 2", lambda: torch.autograd.grad(y, x, torch.ones(2, 1), retain_graph=True))
attempt("count", lambda: torch.autograd.grad([y, y], x, [torch.ones(2, 2)], retain_graph=True))
attempt("backward wrong", lambda: y.backward(torch.ones(3), retain_graph=True))
attempt("int grad", lambda: torch.autograd.grad(y, x, torch.ones(2, 2, dtype=torch.long), retain_graph=True))
attempt("double grad", lambda: torch.autograd.grad(y, x, torch.ones(2, 2, dtype=torch.float64), retain_graph=True))
attempt("scalar needed", lambda: torch.autograd.grad(y, x, retain_graph=True))
attempt("backward scalar", lambda: y.backward(retain_graph=True))
attempt("grad of int", lambda: torch.autograd.grad(y.sum(), torch.tensor([1, 2]), retain_graph=True))

# several outputs with their own grad_outputs, None meaning "no gradient from this one"
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
o1 = a * b
o2 = (a ** 2).sum()
print(torch.autograd.grad([o1, o2], [a, b], [torch.tensor([1.0, -1.0]), None], retain_graph=True))
print(torch.autograd.grad([o1, o2], [a, b], [torch.tensor([1.0, 1.0]), torch.tensor(2.0)], retain_graph=True))
print(torch.autograd.grad([o1.sum(), o2], a, retain_graph=True))
print(torch.autograd.grad(o2, [a, b], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(o2, [a, b], allow_unused=True, materialize_grads=True, retain_graph=True))
attempt("unused", lambda: torch.autograd.grad(o2, [a, b], retain_graph=True))
attempt("materialize w/o allow_unused", lambda: torch.autograd.grad(o2, b, materialize_grads=True, allow_unused=False, retain_graph=True))

# the result of grad has no grad_fn unless create_graph=True
g, = torch.autograd.grad(o2, a, retain_graph=True)
print(g, g.requires_grad, g.grad_fn)
g, = torch.autograd.grad(o2, a, create_graph=True)
print(g, g.requires_grad, g.grad_fn.name())

# backward with a gradient argument on a vector output (the "vector-Jacobian product")
v = torch.tensor([0.1, 1.0, 10.0])
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(t ** 2).backward(gradient=v)
print(t.grad)
(t ** 2).backward(v.unsqueeze(0).squeeze(0) * 2)
print(t.grad)
attempt("grad requires_grad", lambda: (t * 1).backward(torch.ones(3, requires_grad=True)))
print(t.grad)
# gradient argument broadcasting is not done for you
attempt("broadcast", lambda: (t * 2).backward(torch.tensor(1.0)))
