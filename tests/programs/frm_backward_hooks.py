# Full backward hooks and backward pre-hooks on modules: inspecting and rescaling
# grad_input / grad_output, None for inputs without grad, gradient logging per layer.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.4, 0.6, p.numel()).view_as(p) * (1 + 0.1 * i))

records = []


def bwd_hook(mod, grad_input, grad_output):
    records.append((type(mod).__name__, len(grad_input), len(grad_output),
                    [None if g is None else tuple(g.shape) for g in grad_input],
                    [tuple(g.shape) for g in grad_output]))


def bwd_pre_hook(mod, grad_output):
    records.append(("pre", type(mod).__name__, round(grad_output[0].abs().sum().item(), 4)))
    return (grad_output[0] * 2,)


handles = [m.register_full_backward_hook(bwd_hook) for m in net]
handles.append(net[2].register_full_backward_pre_hook(bwd_pre_hook))

x = torch.linspace(-1, 1, 8).view(2, 4)
out = net(x)
print(out.grad_fn.name())
out.sum().backward()
for r in records:
    print(r)
print(net[0].weight.grad)
print(net[2].bias.grad)

# x requires grad now -> first grad_input is a tensor
records.clear()
net.zero_grad()
xr = x.clone().requires_grad_(True)
net(xr).pow(2).mean().backward()
for r in records:
    print(r)
print(xr.grad)

for h in handles:
    h.remove()


def clip_input_grad(mod, grad_input, grad_output):
    return tuple(None if g is None else g.clamp(-0.05, 0.05) for g in grad_input)


lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -2.0], [3.0, 0.5]]))
    lin.bias.zero_()
lin.register_full_backward_hook(clip_input_grad)
z = torch.tensor([[1.0, 2.0]], requires_grad=True)
lin(z).sum().backward()
print(z.grad)
print(lin.weight.grad)

# mixing old and new style hooks
try:
    lin.register_backward_hook(lambda m, gi, go: None)
except RuntimeError as e:
    print(type(e).__name__, e)

# hook that returns the wrong number of gradients
lin2 = nn.Linear(2, 2)
lin2.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
try:
    lin2(z).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
