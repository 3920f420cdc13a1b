# Hooks beyond register_forward_hook: global module hooks (register_module_forward_hook and
# friends), register_full_backward_pre_hook rescaling grad_output, prepend ordering, handles used
# as context managers, and forward hooks with always_call when forward raises.
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_forward_hook, register_module_forward_pre_hook,
                                     register_module_full_backward_hook)

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view_as(p))
x = torch.linspace(-1, 1, 6).view(2, 3)

log = []
h1 = register_module_forward_pre_hook(lambda m, inp: log.append(("pre", type(m).__name__)))
h2 = register_module_forward_hook(lambda m, inp, out: log.append(("fwd", type(m).__name__, tuple(out.shape))))
h3 = register_module_full_backward_hook(lambda m, gi, go: log.append(("bwd", type(m).__name__, len(gi), len(go))))
net(x).sum().backward()
for entry in log:
    print(entry)
for h in (h1, h2, h3):
    h.remove()
log.clear()
net(x)
print("after removal:", log)

grads_seen = []


def scale_grad_output(module, grad_output):
    grads_seen.append(grad_output[0].clone())
    return (grad_output[0] * 10,)


net.zero_grad()
hp = net[2].register_full_backward_pre_hook(scale_grad_output)
net(x).sum().backward()
print(grads_seen[0])
print(net[2].bias.grad, net[0].bias.grad)
hp.remove()
net.zero_grad()
net(x).sum().backward()
print(net[2].bias.grad, net[0].bias.grad)

order = []
net[0].register_forward_hook(lambda m, i, o: order.append("A"))
net[0].register_forward_hook(lambda m, i, o: order.append("B"))
net[0].register_forward_hook(lambda m, i, o: order.append("C"), prepend=True)
net[0].register_forward_pre_hook(lambda m, i: order.append("preA"))
net[0].register_forward_pre_hook(lambda m, i: order.append("preB"), prepend=True)
net(x)
print(order)

with net[1].register_forward_hook(lambda m, i, o: o * 0) as h:
    print(net(x))
print(net(x))


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("bad input")


b = Boom()
calls = []
b.register_forward_hook(lambda m, i, o: calls.append(("always", o)), always_call=True)
b.register_forward_hook(lambda m, i, o: calls.append(("normal", o)))
try:
    b(x)
except ValueError as e:
    print("ValueError", e, calls)


def kw_pre(module, args, kwargs):
    kwargs = dict(kwargs)
    kwargs["scale"] = kwargs.get("scale", 1.0) * 3
    return args, kwargs


class Scaled(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale


s = Scaled()
s.register_forward_pre_hook(kw_pre, with_kwargs=True)
s.register_forward_hook(lambda m, args, kwargs, out: out + kwargs["scale"], with_kwargs=True)
print(s(torch.ones(2), scale=2.0), s(torch.ones(2)))
