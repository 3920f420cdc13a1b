# Full backward hooks in the situations Grad-CAM / attribution code runs into: inputs that do not
# require grad (grad_input is None), modules with several inputs/outputs, an inplace ReLU after a
# hooked module, hooks returning wrong shapes, and grad_fn names of hooked outputs.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)


class TwoInTwoOut(nn.Module):
    def forward(self, a, b):
        return a * b, a + 2 * b


lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]))
    lin.bias.copy_(torch.tensor([0.1, -0.1]))

seen = []


def record(module, grad_input, grad_output):
    seen.append(([None if g is None else tuple(g.shape) for g in grad_input],
                 [None if g is None else tuple(g.shape) for g in grad_output]))


h = lin.register_full_backward_hook(record)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
out = lin(x)
print(out.grad_fn.name())
out.sum().backward()
print(seen[-1])
xg = x.clone().requires_grad_()
lin(xg).pow(2).sum().backward()
print(seen[-1], xg.grad)
h.remove()

m = TwoInTwoOut()
hm = m.register_full_backward_hook(lambda mod, gi, go: print("multi", [tuple(g.shape) if g is not None else None for g in gi],
                                                           [tuple(g.shape) if g is not None else None for g in go]))
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
p, s = m(a, b)
(p.sum() + s.sum()).backward()
print(a.grad)
a.grad = None
p, s = m(a, b)
p.sum().backward()
print(a.grad)
hm.remove()

# the hook may replace grad_input, but with the right number of entries
h = lin.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 0,))
xg = x.clone().requires_grad_()
lin(xg).sum().backward()
print(xg.grad, lin.weight.grad is not None)
h.remove()
h = lin.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
xg = x.clone().requires_grad_()
try:
    lin(xg).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
h.remove()

# inplace op on the output of a module with a full backward hook
h = lin.register_full_backward_hook(record)
xg = x.clone().requires_grad_()
try:
    y = lin(xg)
    y.relu_()
    y.sum().backward()
    print("no error")
except RuntimeError as e:
    print(type(e).__name__, str(e)[:120])
seq = nn.Sequential(lin, nn.ReLU(inplace=True))
try:
    seq(xg).sum().backward()
    print("no error")
except RuntimeError as e:
    print(type(e).__name__, str(e)[:120])
h.remove()

# old-style register_backward_hook still exists
old = []
try:
    lin.register_backward_hook(lambda mod, gi, go: old.append(len(gi)))
except RuntimeError as e:
    print(type(e).__name__, e)
lin2 = nn.Linear(3, 2)
h = lin2.register_backward_hook(lambda mod, gi, go: old.append([None if g is None else tuple(g.shape) for g in gi]))
lin2(x.clone().requires_grad_()).sum().backward()
print(old)
try:
    lin2.register_full_backward_hook(record)
except RuntimeError as e:
    print(type(e).__name__, e)
h.remove()

# module hooks on a module called twice in one forward fire twice
count = {"f": 0, "b": 0}
hf = lin.register_forward_hook(lambda *a: count.__setitem__("f", count["f"] + 1))
hb = lin.register_full_backward_hook(lambda *a: count.__setitem__("b", count["b"] + 1))
z = lin(x) + lin(x * 2)
z.sum().backward()
print(count)
hf.remove(); hb.remove()
print(lin._forward_hooks, lin._backward_hooks)
