# backward(inputs=...) with non-leaf tensors, hooks that rewrite gradients of intermediates,
# the order in which tensor hooks, Node prehooks, Node hooks and post-accumulate-grad hooks run.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * x          # non-leaf
z = (h * 2).sum()
z.backward(inputs=[h], retain_graph=True)
print(h.grad, x.grad, h.is_leaf, h.retains_grad)
z.backward(inputs=[h, x])
print(h.grad, x.grad)

# the hook on the non-leaf still fires; its return value changes what flows upstream
w = torch.tensor([2.0, -1.0], requires_grad=True)
mid = w.exp()
mid.register_hook(lambda g: g * 0 + 1.0)
out = (mid * torch.tensor([5.0, 7.0])).sum()
g_mid, g_w = torch.autograd.grad(out, [mid, w])
print(g_mid, g_w)

order = []
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
c = b.sum()
b.register_hook(lambda g: order.append("tensor hook b") or g * 2)
b.grad_fn.register_prehook(lambda gouts: order.append("node prehook MulBackward0") or None)
b.grad_fn.register_hook(lambda gins, gouts: order.append("node hook MulBackward0") or None)
c.grad_fn.register_prehook(lambda gouts: order.append("node prehook SumBackward0"))
a.register_hook(lambda g: order.append("tensor hook a") or None)
a.register_post_accumulate_grad_hook(lambda p: order.append(f"post accumulate {p.grad.tolist()}"))
b.retain_grad()
c.backward()
print(order)
print(a.grad, b.grad)

# the node prehook sees (and may replace) what a tensor hook has already changed
seen = []
p = torch.tensor([1.0, 1.0], requires_grad=True)
q = p * 2
q.register_hook(lambda g: g + 100)
q.grad_fn.register_prehook(lambda gouts: seen.append(gouts[0].tolist()) or (gouts[0] * 0.5,))
q.sum().backward()
print(seen, p.grad)

# hook on a view of an intermediate
base = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
tmp = base + 0
first = tmp[0]
first.register_hook(lambda g: g * 10)
(first.sum() + tmp.sum()).backward()
print(base.grad)

# hooks on the same tensor run in registration order; removing one takes it out
calls = []
t = torch.tensor([1.0], requires_grad=True)
u = t * 1
h1 = u.register_hook(lambda g: calls.append("first") or g + 1)
h2 = u.register_hook(lambda g: calls.append(f"second sees {g.item()}") or g * 3)
u.backward(torch.tensor([1.0]), retain_graph=True)
print(calls, t.grad)
h1.remove()
calls.clear()
t.grad = None
u.backward(torch.tensor([1.0]))
print(calls, t.grad)

# post-accumulate hook fires once per backward, after accumulation into .grad
acc = []
leaf = torch.tensor([2.0], requires_grad=True)
leaf.register_post_accumulate_grad_hook(lambda p: acc.append(p.grad.item()))
(leaf * 3 + leaf * 4).sum().backward()
(leaf * 5).sum().backward()
print(acc)
try:
    (leaf * 2).register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
