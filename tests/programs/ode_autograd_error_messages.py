# The errors people hit writing neural-ODE / score-matching / gradient-penalty code by hand:
# grad of a non-scalar without grad_outputs, unused inputs, a second backward through a freed
# graph, grads of inputs that do not require grad, and torch.func transforms misused.
import torch
import torch.nn as nn
from torch.func import grad, jacrev, vmap, hessian, jvp, vjp


def show(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


x = torch.linspace(0.2, 1.0, 5, requires_grad=True)
w = torch.tensor([0.5, -0.25], requires_grad=True)
y = torch.sin(x) * w[0]

show("non-scalar grad", lambda: torch.autograd.grad(y, x))
show("non-scalar backward", lambda: y.backward())
show("grad_outputs shape", lambda: torch.autograd.grad(y, x, torch.ones(3)))
show("unused input", lambda: torch.autograd.grad(y.sum(), [x, w], retain_graph=True))
g = torch.autograd.grad(y.sum(), [x, w], allow_unused=True, retain_graph=True)
print("allow_unused w grad:", g[1].tolist())
z = torch.tensor(2.0, requires_grad=True)
g = torch.autograd.grad(y.sum(), [x, z], allow_unused=True, retain_graph=True)
print("allow_unused z grad:", g[1])
g = torch.autograd.grad(y.sum(), [x, z], allow_unused=True, materialize_grads=True, retain_graph=True)
print("materialized z grad:", g[1])
show("materialize w/o allow_unused", lambda: torch.autograd.grad(y.sum(), [z], allow_unused=False, materialize_grads=True))

loss = (y ** 2).sum()
gx, = torch.autograd.grad(loss, x)
show("second grad freed", lambda: torch.autograd.grad(loss, x))
show("grad of grad without create_graph", lambda: torch.autograd.grad(gx.sum(), x))

plain = torch.ones(3)
show("no requires_grad", lambda: torch.autograd.grad((plain * 2).sum(), plain))
show("backward no grad_fn", lambda: (plain * 2).sum().backward())
leaf = torch.ones(3, requires_grad=True)
out = (leaf * 3).sum()
show("input not reached", lambda: torch.autograd.grad(out, torch.ones(3, requires_grad=True)))
show("output is leaf", lambda: torch.autograd.grad(leaf.sum(), leaf))

# gradient penalty without create_graph: the penalty does not reach the weights
critic = nn.Linear(3, 1)
with torch.no_grad():
    critic.weight.copy_(torch.tensor([[0.2, -0.4, 0.6]]))
    critic.bias.fill_(0.1)
inp = torch.ones(4, 3, requires_grad=True)
d = critic(inp)
gi, = torch.autograd.grad(d, inp, grad_outputs=torch.ones_like(d))
gp = ((gi.norm(2, dim=1) - 1) ** 2).mean()
print("gp requires_grad without create_graph:", gp.requires_grad)
show("gp backward", lambda: gp.backward())
d = critic(inp)
gi, = torch.autograd.grad(d, inp, grad_outputs=torch.ones_like(d), create_graph=True)
gp = ((gi.norm(2, dim=1) - 1) ** 2).mean()
print("gp with create_graph:", gp.grad_fn.name(), f"{gp.item():.4f}")
gp.backward()
print("critic weight grad:", critic.weight.grad)
print("critic bias grad:", critic.bias.grad)

# torch.func misuse
f_vec = lambda t: torch.sin(t) * 2
show("func.grad non-scalar", lambda: grad(f_vec)(torch.ones(3)))
show("func.grad int input", lambda: grad(lambda t: t.sum())(torch.arange(3)))
show("func.grad tuple output", lambda: grad(lambda t: (t.sum(), t))(torch.ones(2)))
show("jacrev int output", lambda: jacrev(lambda t: 3)(torch.ones(2)))
show("vmap in_dims size", lambda: vmap(torch.sin, in_dims=1)(torch.ones(3)))
show("vmap mismatched", lambda: vmap(torch.add)(torch.ones(3), torch.ones(4)))
show("jvp tangent shape", lambda: jvp(torch.sin, (torch.ones(3),), (torch.ones(2),)))
show("jvp not tuple", lambda: jvp(torch.sin, torch.ones(3), torch.ones(3)))
out, fn = vjp(torch.sin, torch.zeros(3))
show("vjp cotangent shape", lambda: fn(torch.ones(2)))
print("vjp ok:", fn(torch.ones(3)))
print("hessian ok:", hessian(lambda t: (t ** 3).sum())(torch.tensor([1.0, 2.0])))
show("hessian non-scalar", lambda: hessian(lambda t: t ** 3)(torch.tensor([1.0, 2.0])).shape)
