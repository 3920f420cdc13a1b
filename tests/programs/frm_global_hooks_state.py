# Global module hooks (torch.nn.modules.module.register_module_forward_hook & co) used for
# profiling every layer, plus state_dict pre/post hooks and keep_vars / prefix arguments.
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_forward_hook, register_module_forward_pre_hook,
                                     register_module_full_backward_hook)

net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) + 0.05 * i)

trace = []
h1 = register_module_forward_pre_hook(lambda m, inp: trace.append(("pre", type(m).__name__)))
h2 = register_module_forward_hook(lambda m, inp, out: trace.append(("fwd", type(m).__name__, tuple(out.shape))))
h3 = register_module_full_backward_hook(lambda m, gi, go: trace.append(("bwd", type(m).__name__)))
local = net[0].register_forward_hook(lambda m, i, o: trace.append(("local", type(m).__name__)))
x = torch.linspace(-1, 1, 6).view(2, 3).requires_grad_()
out = net(x)
out.sum().backward()
for t in trace:
    print(t)
for h in (h1, h2, h3, local):
    h.remove()
trace.clear()
net(x)
print(trace)

calls = []


def sd_pre(module, prefix, keep_vars):
    calls.append(("pre", type(module).__name__, prefix, keep_vars))


def sd_post(module, state_dict, prefix, local_metadata):
    calls.append(("post", type(module).__name__, prefix, len(state_dict)))
    state_dict[prefix + "tag"] = torch.tensor(1)


net[2].register_state_dict_pre_hook(sd_pre)
hp = net[2].register_state_dict_post_hook(sd_post)
sd = net.state_dict()
print(list(sd.keys()))
print(calls)
hp.remove()
calls.clear()
sd = net.state_dict(prefix="model.")
print(list(sd.keys()), calls)
kv = net.state_dict(keep_vars=True)
print(type(kv["0.weight"]).__name__, kv["0.weight"].requires_grad, kv["0.weight"] is net[0].weight)
plain = net.state_dict()
print(type(plain["0.weight"]).__name__, plain["0.weight"].requires_grad)
plain["0.bias"].add_(100)
print(net[0].bias)
dest = {}
r = net[0].state_dict(destination=dest, prefix="enc.")
print(r is dest, list(dest))


class WithExtra(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)
        self.cfg = {"k": 3}

    def get_extra_state(self):
        return dict(self.cfg)

    def set_extra_state(self, state):
        print("set_extra_state", state)
        self.cfg = state


w = WithExtra()
s = w.state_dict()
print(list(s.keys()), s["_extra_state"])
s["_extra_state"] = {"k": 7}
print(w.load_state_dict(s))
print(w.cfg)
del s["_extra_state"]
try:
    w.load_state_dict(s)
except RuntimeError as e:
    print(type(e).__name__, e)
