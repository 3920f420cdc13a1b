# Module hooks as used for debugging: forward pre-hooks/hooks with kwargs, full backward (pre-)hooks
# on modules with several inputs, hooks changing gradients, prepend ordering and handle removal.
import os
import warnings

import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))

    def forward(self, x, y, *, alpha=1.0):
        return x * self.w + alpha * y, (x - y).sum()


m = Scale()
log = []


def pre_kw(module, args, kwargs):
    log.append(("pre", len(args), sorted(kwargs)))
    kwargs = dict(kwargs)
    kwargs["alpha"] = kwargs.get("alpha", 1.0) * 10
    return args, kwargs


def fwd_kw(module, args, kwargs, output):
    log.append(("fwd", len(args), dict(kwargs), type(output).__name__))


h_pre = m.register_forward_pre_hook(pre_kw, with_kwargs=True)
h_fwd = m.register_forward_hook(fwd_kw, with_kwargs=True)
x = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
y = torch.tensor([2.0, 0.0, 1.0], requires_grad=True)
out, s = m(x, y, alpha=0.5)
print(out, s)
print(log)

bw = []


def back_pre(module, grad_output):
    bw.append(("bpre", [None if g is None else g.tolist() for g in grad_output]))
    return (grad_output[0] * 2, grad_output[1])


def back(module, grad_input, grad_output):
    bw.append(("bhook", [None if g is None else g.tolist() for g in grad_input],
               [None if g is None else g.tolist() for g in grad_output]))
    return (grad_input[0] + 1, grad_input[1])


h_bp = m.register_full_backward_pre_hook(back_pre)
h_b = m.register_full_backward_hook(back)
out, s = m(x, y)
(out.sum() + 3 * s).backward()
for e in bw:
    print(e)
print(x.grad, y.grad, m.w.grad)

for h in (h_pre, h_fwd, h_bp, h_b):
    h.remove()
x.grad = y.grad = None
m.w.grad = None
out, s = m(x, y)
(out.sum() + 3 * s).backward()
print(x.grad, y.grad, m.w.grad, len(log), len(bw))

# prepend=True puts a hook first
order = []
lin = nn.Linear(2, 2)
lin.register_forward_hook(lambda mod, i, o: order.append("a"))
lin.register_forward_hook(lambda mod, i, o: order.append("b"), prepend=True)
lin.register_forward_pre_hook(lambda mod, i: order.append("pre1"))
lin.register_forward_pre_hook(lambda mod, i: order.append("pre0"), prepend=True)
lin(torch.ones(1, 2))
print(order)

# forward hook replacing the output
lin2 = nn.Linear(2, 1)
with torch.no_grad():
    lin2.weight.copy_(torch.tensor([[1.0, -1.0]]))
    lin2.bias.fill_(0.25)
hh = lin2.register_forward_hook(lambda mod, i, o: o.relu())
print(lin2(torch.tensor([[1.0, 3.0], [3.0, 1.0]])))
hh.remove()
print(lin2(torch.tensor([[1.0, 3.0], [3.0, 1.0]])))

# a full backward hook on a module whose input does not require grad
seen = []
lin2.register_full_backward_hook(lambda mod, gi, go: seen.append((gi, [g.shape for g in go])))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    lin2(torch.tensor([[1.0, 3.0]])).sum().backward()
print(seen)
print([(w.category.__name__, os.path.basename(w.filename)) for w in caught])
print(lin2.weight.grad, lin2.bias.grad)
print(len(lin2._forward_hooks), len(lin2._backward_hooks), len(m._forward_pre_hooks))
