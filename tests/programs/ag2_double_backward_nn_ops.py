# Second derivatives through nn ops, as in gradient-penalty / meta-learning code:
# softmax, log_softmax, layer_norm, conv1d/conv2d, linear+tanh, cross_entropy, mse, gelu, pooling.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)


def second(fn, x, w=None):
    """d/dx of sum(w * d fn(x)/dx) — a Hessian-vector product with w."""
    x = x.detach().requires_grad_()
    y = fn(x)
    g, = torch.autograd.grad(y, x, create_graph=True)
    w = torch.ones_like(x) if w is None else w
    h, = torch.autograd.grad((g * w).sum(), x)
    return g.detach(), h


x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
v = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 1.0]])
weights = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])

for name, fn in [
    ("softmax", lambda t: (F.softmax(t, dim=1) * weights).sum()),
    ("log_softmax", lambda t: (F.log_softmax(t, dim=-1) * weights).sum()),
    ("layer_norm", lambda t: (F.layer_norm(t, (3,)) * weights).sum()),
    ("gelu", lambda t: F.gelu(t).sum()),
    ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh").sum()),
    ("silu", lambda t: F.silu(t).sum()),
    ("softplus", lambda t: F.softplus(t, beta=2.0).sum()),
    ("logsigmoid", lambda t: F.logsigmoid(t).sum()),
    ("cross_entropy", lambda t: F.cross_entropy(t, torch.tensor([2, 0]))),
    ("mse", lambda t: F.mse_loss(t.tanh(), weights)),
    ("norm", lambda t: t.norm()),
    ("cumsum_prod", lambda t: t.cumsum(1).prod()),
]:
    g, h = second(fn, x, v)
    print(name)
    print(g)
    print(h)

# layer_norm with affine parameters: mixed second derivative w.r.t. the weight
inp = x.clone().requires_grad_()
gamma = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
beta = torch.tensor([0.0, 0.1, -0.1], requires_grad=True)
out = (F.layer_norm(inp, (3,), gamma, beta) ** 2).sum()
gx, = torch.autograd.grad(out, inp, create_graph=True)
gg, gb = torch.autograd.grad(gx.abs().sum(), [gamma, beta], allow_unused=True)
print(gg, gb)

# conv1d / conv2d: gradient penalty on the input gradient, differentiated w.r.t. the weight
sig = torch.arange(8.0).view(1, 1, 8).div(4).requires_grad_()
k1 = torch.tensor([[[1.0, -2.0, 0.5]]], requires_grad=True)
y = F.conv1d(sig, k1, padding=1).tanh().sum()
gs, = torch.autograd.grad(y, sig, create_graph=True)
pen = (gs ** 2).sum()
pen.backward()
print(gs.detach())
print(k1.grad)

img = torch.arange(16.0).view(1, 1, 4, 4).div(8).requires_grad_()
k2 = torch.tensor([[[[0.5, -1.0], [1.0, 0.25]]]], requires_grad=True)
y = F.conv2d(img, k2, stride=1).sigmoid().pow(2).sum()
gi, = torch.autograd.grad(y, img, create_graph=True)
gi.norm().backward()
print(gi.detach())
print(k2.grad)

# max_pool and avg_pool: second derivatives are zero for the piecewise-linear ops
p = torch.arange(16.0).view(1, 1, 4, 4).requires_grad_()
g, = torch.autograd.grad((F.max_pool2d(p, 2) ** 2).sum(), p, create_graph=True)
h, = torch.autograd.grad(g.sum(), p)
print(g.detach().view(4, 4), h.view(4, 4), sep="\n")
g, = torch.autograd.grad((F.avg_pool2d(p, 2) ** 3).sum(), p, create_graph=True)
print(torch.autograd.grad(g.sum(), p)[0].view(4, 4))
