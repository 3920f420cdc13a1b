# Hessian-vector products (double backward): products and cumulative products, smooth_l1/huber
# on both sides of the beta/delta switch, ELU-family activations, mish, relu-like ops. Small exact
# inputs, values printed. (Exactly at a zero factor or a switch point tapegrad's second
# derivatives differ from PyTorch's: a known gap, so those points are left out.)
import torch
import torch.nn.functional as F


def hvp_at(fn, x, v):
    x = x.clone().requires_grad_()
    g, = torch.autograd.grad(fn(x), x, create_graph=True)
    hv, = torch.autograd.grad((g * v).sum(), x, allow_unused=True, materialize_grads=True)
    return g.detach(), hv


x = torch.tensor([1.0, 0.25, -0.5, 1.5])
v = torch.tensor([0.5, -0.5, 1.0, 2.0])

print("prod")
g, hv = hvp_at(lambda t: t.prod(), x, v)
print(g, hv)
print("prod, three factors")
g, hv = hvp_at(lambda t: t.prod(), torch.tensor([3.0, 2.0, 0.5]), torch.tensor([1.0, 1.0, 1.0]))
print(g, hv)
print("cumprod")
g, hv = hvp_at(lambda t: t.cumprod(0).sum(), x, v)
print(g, hv)

# the full Hessian of prod, row by row
H = torch.autograd.functional.hessian(lambda t: t.prod(), x)
print(H)

target = torch.tensor([1.4, 0.55, 0.1, 1.2])   # x - target on both sides of +-0.5
for name, fn in [
    ("smooth_l1 beta=0.5", lambda t: F.smooth_l1_loss(t, target, beta=0.5, reduction="sum")),
    ("huber delta=0.5", lambda t: F.huber_loss(t, target, delta=0.5, reduction="sum")),
    ("smooth_l1 beta=1", lambda t: F.smooth_l1_loss(t, target, reduction="sum")),
]:
    g, hv = hvp_at(fn, x, v)
    print(name, g, hv)

z = torch.tensor([-1.0, 0.25, 0.5])
w = torch.tensor([1.0, 1.0, 1.0])
for name, fn in [
    ("elu", F.elu),
    ("selu", F.selu),
    ("celu", lambda t: F.celu(t, alpha=0.5)),
    ("mish", F.mish),
    ("silu", F.silu),
    ("softplus", F.softplus),
    ("gelu", F.gelu),
    ("relu", F.relu),
    ("leaky_relu", lambda t: F.leaky_relu(t, 0.2)),
    ("hardtanh", lambda t: F.hardtanh(t, -0.5, 0.5)),
]:
    g, hv = hvp_at(lambda t: (fn(t) ** 2).sum(), z, w)
    print(f"{name:10s}", g, hv)

# second derivative of the activation itself (not squared)
for name, fn in [("elu", F.elu), ("selu", F.selu), ("mish", F.mish)]:
    t = torch.tensor([0.3], requires_grad=True)
    d1, = torch.autograd.grad(fn(t).sum(), t, create_graph=True)
    d2, = torch.autograd.grad(d1.sum(), t)
    print(name, round(d1.item(), 4), round(d2.item(), 4))
