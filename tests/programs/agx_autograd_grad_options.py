# torch.autograd.grad / backward options users reach for: allow_unused, materialize_grads,
# grad_outputs, backward(inputs=...), create_graph chains, and the errors for common mistakes.
import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except RuntimeError as e:
        print(label, "RuntimeError:", e)


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
attempt("unused", lambda: torch.autograd.grad((x * 2).sum(), [x, y]))
attempt("allow_unused", lambda: torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True))
attempt("materialize", lambda: torch.autograd.grad((x * 2).sum(), [x, y], materialize_grads=True))
attempt("non-scalar", lambda: torch.autograd.grad(x * 2, x))
attempt("grad_outputs", lambda: torch.autograd.grad(x * 2, x, grad_outputs=torch.tensor([1.0, 0.5])))
attempt("bad grad_outputs", lambda: torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(3)))
attempt("no grad at all", lambda: torch.autograd.grad(torch.ones(2).sum(), torch.ones(2)))
attempt("input not in graph", lambda: torch.autograd.grad((x.exp() * 2).sum(), x.exp()))
h = x * 3
attempt("wrt intermediate", lambda: torch.autograd.grad((h ** 2).sum(), h))
attempt("two outputs", lambda: torch.autograd.grad([x.sum(), (x ** 2).sum()], x))

(x * y).sum().backward(inputs=[y])
print("inputs=[y]", x.grad, y.grad)
(x * y).sum().backward(inputs=x)
print("inputs=x", x.grad, y.grad)
x.grad = y.grad = None
torch.autograd.backward([x.sum(), (x ** 2).sum()], [torch.tensor(1.0), torch.tensor(2.0)])
print("backward list", x.grad)
x.grad = None

# higher derivatives: keep create_graph=True at every step but the last
g1, = torch.autograd.grad((x ** 4).sum(), x, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), x, create_graph=True)
g3, = torch.autograd.grad(g2.sum(), x)
print(g1, g2, g3, sep="\n")
g1, = torch.autograd.grad((x ** 4).sum(), x, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), x)
attempt("third without create_graph", lambda: torch.autograd.grad(g2.sum(), x))

# a hook that fires once all the listed tensors have their gradients
seen = []
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
handle = torch.autograd.graph.register_multi_grad_hook(
    (a, b), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
(a * b).sum().backward()
(a * 2).sum().backward()
handle.remove()
(a * b).sum().backward()
print(seen)
print(a.grad, b.grad)
