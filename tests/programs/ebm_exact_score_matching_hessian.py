# Hyvarinen's exact score matching on a tiny energy model: tr(Hessian of E) via
# torch.autograd.functional.hessian / jacobian(create_graph=True) and torch.func.hessian + vmap, the
# loss 0.5|grad E|^2 - tr(H) backpropagated into the parameters, compared across the three routes.
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, jacobian
from torch.func import functional_call, vmap
import torch.func as tf

torch.set_printoptions(precision=5)


class TinyEnergy(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(2, 6, dtype=torch.float64)
        self.l2 = nn.Linear(6, 1, dtype=torch.float64)
        self.act = nn.CELU(alpha=0.8)

    def forward(self, x):
        return self.l2(self.act(self.l1(x))).squeeze(-1) + 0.5 * (x ** 2).sum(-1)


model = TinyEnergy()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.9 + i).view_as(p))

xs = torch.stack([torch.linspace(-1, 1, 4, dtype=torch.float64),
                  torch.cos(torch.arange(4, dtype=torch.float64))], 1)

# route 1: autograd.functional per sample
H0 = hessian(lambda x: model(x), xs[0])
print("hessian", H0, torch.allclose(H0, H0.T))
J0 = jacobian(lambda x: model(x), xs[0], create_graph=True)
print("jacobian", J0, J0.requires_grad)

# route 2: double autograd.grad loop
x = xs.clone().requires_grad_(True)
e = model(x)
(g,) = torch.autograd.grad(e.sum(), x, create_graph=True)
tr = torch.zeros(x.shape[0], dtype=x.dtype)
for d in range(x.shape[1]):
    (gd,) = torch.autograd.grad(g[:, d].sum(), x, create_graph=True)
    tr = tr + gd[:, d]
loss = (0.5 * g.pow(2).sum(1) - tr).mean()
print("trace", tr.detach(), f"loss {loss.item():.6f}")
loss.backward()
grads_loop = {k: p.grad.clone() for k, p in model.named_parameters() if p.grad is not None}
print("no grad:", [k for k, p in model.named_parameters() if p.grad is None])

# route 3: torch.func
params = dict(model.named_parameters())


def energy_fn(p, x):
    return functional_call(model, p, (x,))


def sm_loss(p, xb):
    gr = vmap(tf.grad(energy_fn, argnums=1), in_dims=(None, 0))(p, xb)
    hs = vmap(tf.hessian(energy_fn, argnums=1), in_dims=(None, 0))(p, xb)
    return (0.5 * gr.pow(2).sum(1) - hs.diagonal(dim1=-2, dim2=-1).sum(-1)).mean()


val = sm_loss(params, xs)
grads_func = tf.grad(sm_loss)(params, xs)
print(f"func loss {val.item():.6f}")
for k in grads_loop:
    print(k, tuple(grads_func[k].shape), torch.allclose(grads_loop[k], grads_func[k], atol=1e-10))
print(grads_func["l1.weight"], grads_func["l2.bias"])

opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(12):
    x = xs.clone().requires_grad_(True)
    g = torch.autograd.grad(model(x).sum(), x, create_graph=True)[0]
    tr = sum(torch.autograd.grad(g[:, d].sum(), x, create_graph=True)[0][:, d] for d in range(2))
    loss = (0.5 * g.pow(2).sum(1) - tr).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.6f}")
