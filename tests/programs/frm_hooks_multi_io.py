# Gradient-inspection hooks on modules with several inputs and tuple outputs (an attention
# block returning (out, weights), a gated unit taking a mask): full backward hooks and pre-hooks
# see one slot per input / output, global backward pre-hooks, and the deprecated backward hook.
import warnings
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_full_backward_pre_hook,
                                     register_module_backward_hook, register_module_full_backward_hook)


def describe(grads):
    return [None if g is None else [round(v, 4) for v in g.flatten().tolist()] for g in grads]


class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(2, 2, bias=False)

    def forward(self, x, mask, temperature=1.0):
        scores = self.q(x) @ x.transpose(0, 1) / temperature
        weights = torch.softmax(scores.masked_fill(mask == 0, -1e9), dim=-1)
        return weights @ x, weights


attn = Attn()
with torch.no_grad():
    attn.q.weight.copy_(torch.tensor([[0.5, -0.25], [0.75, 1.0]]))

log = []
attn.register_full_backward_pre_hook(lambda m, go: log.append(("pre", describe(go))))
attn.register_full_backward_hook(lambda m, gi, go: log.append(("full", describe(gi), describe(go))))

x = torch.tensor([[1.0, 0.0], [0.5, -1.0]], requires_grad=True)
mask = torch.tensor([[1.0, 1.0], [1.0, 0.0]])
out, w = attn(x, mask, 2.0)
print(type(out).__name__, out.grad_fn.name(), w.grad_fn.name())
out.sum().backward()
for entry in log:
    print(entry)
print(x.grad)

log.clear()
x.grad = None
out, w = attn(x, mask)
(out.sum() + w[0, 0]).backward()
for entry in log:
    print(entry)

log.clear()
x.grad = None
out, w = attn(x, mask.requires_grad_())
w.pow(2).sum().backward()
for entry in log:
    print(entry)

glog = []
h1 = register_module_full_backward_pre_hook(lambda m, go: glog.append(("gpre", type(m).__name__, len(go))))
h2 = register_module_full_backward_hook(lambda m, gi, go: glog.append(("gfull", type(m).__name__, len(gi), len(go))))
try:
    register_module_backward_hook(lambda m, gi, go: None)
except RuntimeError as e:
    print(type(e).__name__, e)
net = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
net(torch.ones(1, 2)).sum().backward()
print(glog)
h1.remove()
h2.remove()

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [-1.0, 0.5]]))
    lin.bias.zero_()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    h = lin.register_backward_hook(lambda m, gi, go: print("old", [None if g is None else tuple(g.shape) for g in gi]))
    lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
print(len(lin._backward_hooks), lin._is_full_backward_hook)
h.remove()
try:
    lin.register_full_backward_hook(lambda m, gi, go: None)
except RuntimeError as e:
    print(type(e).__name__, e)
