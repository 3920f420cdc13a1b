# "Autograd mechanics — backward hooks execution": tensor hooks, Node pre-hooks and hooks,
# retain_grad, leaf hooks, removing handles, hooks that change gradients, and the
# post-accumulate-grad hook used to fuse the optimizer step into backward.
import torch
import torch.nn as nn

events = []
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
c = b.exp()
node = b.grad_fn
print(node.name(), node.next_functions[0][0].name())

b.register_hook(lambda g: events.append(("tensor hook on b", round(g.item(), 3))))
b.retain_grad()
node.register_prehook(lambda grad_outputs: events.append(("MulBackward0 pre-hook", round(grad_outputs[0].item(), 3))))
node.register_hook(lambda grad_inputs, grad_outputs: events.append(
    ("MulBackward0 hook", round(grad_inputs[0].item(), 3), round(grad_outputs[0].item(), 3))))
a.register_hook(lambda g: events.append(("tensor hook on leaf a", round(g.item(), 3))))
c.backward()
for e in events:
    print(e)
print(b.grad, a.grad)

# Hooks that return a value replace the gradient
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.register_hook(lambda g: g * 0 + 1)                               # tensor hook: replace
h = y.grad_fn.register_prehook(lambda gout: (gout[0] * 10,))       # pre-hook: scale
y.grad_fn.register_hook(lambda gin, gout: tuple(g + 0.5 for g in gin))  # hook: shift grad_inputs
y.sum().backward()
print(x.grad)

# A Node hook must return one gradient per input of the node (x * x has two)
bad = x * x
bad.grad_fn.register_hook(lambda gin, gout: (gin[0],))
try:
    bad.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

x.grad = None
h.remove()
y = x * x
y.sum().backward()
print(x.grad)

# A hook on a leaf runs before its gradient is accumulated
w = torch.tensor([1.0, -1.0], requires_grad=True)
w.register_hook(lambda g: g.clamp(min=0))
(w * torch.tensor([3.0, -4.0])).sum().backward()
(w * torch.tensor([-2.0, 5.0])).sum().backward()
print(w.grad)

# autograd.grad with inputs: tensor hooks of the inputs fire, nothing is accumulated
seen = []
p = torch.tensor([1.0, 2.0], requires_grad=True)
p.register_hook(lambda g: seen.append(g.tolist()))
q = (p ** 3).sum()
gp, = torch.autograd.grad(q, p)
print(gp, seen, p.grad)

# Post-accumulate-grad hooks run after .grad is updated: the optimizer step inside backward
order = []
leaf = torch.tensor(1.0, requires_grad=True)
leaf.register_hook(lambda g: order.append("tensor hook"))
leaf.register_post_accumulate_grad_hook(lambda t: order.append(f"post accumulate grad={t.grad.item()}"))
(leaf * 4).backward()
print(order)


def make_model():
    model = nn.Linear(3, 2)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        model.bias.copy_(torch.tensor([0.05, -0.05]))
    return model


inputs = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
targets = torch.tensor([[1.0, 0.0], [0.0, 1.0]])

model = make_model()
optimizer_dict = {p: torch.optim.SGD([p], lr=0.1, momentum=0.9) for p in model.parameters()}


def optimizer_hook(parameter) -> None:
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


for p in model.parameters():
    p.register_post_accumulate_grad_hook(optimizer_hook)
for step in range(3):
    loss = nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    print(step, f"{loss.item():.5f}", model.weight.grad)

reference = make_model()
opt = torch.optim.SGD(reference.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(reference(inputs), targets).backward()
    opt.step()
print(model.weight)
print(torch.allclose(model.weight, reference.weight), torch.allclose(model.bias, reference.bias))
