# Autograd around compiled functions: requires_grad of outputs, no_grad / enable_grad / detach
# inside, torch.autograd.grad on a compiled result, backward twice with retain_graph, gradient
# hooks on inputs, and the double-backward error users hit with create_graph=True.
import torch


@torch.compile
def energy(x, w):
    h = torch.tanh(x @ w)
    with torch.no_grad():
        norm = h.norm()
    return (h ** 2).sum() / norm, norm, h.detach()


x = torch.tensor([[0.5, -1.0], [1.5, 2.0], [0.0, 0.25]])
w = torch.tensor([[1.0, -0.5], [0.25, 0.75]], requires_grad=True)
e, norm, hd = energy(x, w)
print(e, norm, hd, sep="\n")
print(e.requires_grad, norm.requires_grad, hd.requires_grad, norm.grad_fn, hd.grad_fn)
(gw,) = torch.autograd.grad(e, w, retain_graph=True)
print(gw)
e.backward(retain_graph=True)
e.backward()
print(torch.allclose(w.grad, 2 * gw), w.grad)

with torch.no_grad():
    e2, _, _ = energy(x, w)
print(e2, e2.requires_grad)


@torch.compile
def with_enable_grad(a):
    with torch.enable_grad():
        b = a * 3
    return b, torch.is_grad_enabled()


a = torch.ones(2, requires_grad=True)
with torch.no_grad():
    b, flag = with_enable_grad(a)
print(b.detach(), flag)  # (tapegrad: enable_grad inside a call made under no_grad records nothing)

seen = []
w2 = torch.tensor([[1.0, 0.0], [0.0, 1.0]], requires_grad=True)
w2.register_hook(lambda g: seen.append(g.clone()))
e3, _, _ = energy(x, w2)
e3.backward()
print(len(seen), torch.equal(seen[0], w2.grad), w2.grad)

xs = x.clone().requires_grad_()
e4, _, _ = energy(xs, w.detach())
gx = torch.autograd.grad(e4, xs)[0]
print(gx)

try:
    (g,) = torch.autograd.grad(e4 * 0 + energy(xs, w)[0], w, create_graph=True)
    g.sum().backward()
    print("double backward ok", w.grad.shape)
except RuntimeError as e:
    print(type(e).__name__, "double backward" in str(e))

y = torch.compile(lambda t: t.exp().sum())(torch.zeros(3, requires_grad=True))
print(y, y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
