# Interpretability hooks beyond Grad-CAM: capture every layer's activations with named forward hooks,
# forward pre-hooks that edit inputs (with_kwargs), backward pre-hooks on grad_output,
# tensor.register_hook on intermediate activations, global module hooks, and handle cleanup.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.module import register_module_forward_hook

torch.set_printoptions(precision=4)

model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.GELU(), nn.Linear(6, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view_as(p) * 0.7)
x = torch.stack([torch.linspace(-1, 1, 5), torch.linspace(0, 2, 5), torch.cos(torch.arange(5.0)),
                 torch.sin(torch.arange(5.0))], 1)

activations, handles = {}, []


def save(name):
    def hook(module, inp, out):
        activations[name] = out.detach()
    return hook


for name, module in model.named_modules():
    if isinstance(module, (nn.Linear, nn.ReLU, nn.GELU)):
        handles.append(module.register_forward_hook(save(name)))
out = model(x)
for name, act in activations.items():
    print(name, tuple(act.shape), f"mean={act.mean().item():.4f}", f"dead={(act == 0).float().mean().item():.2f}")
for h in handles:
    h.remove()
print([len(m._forward_hooks) for m in model])

# forward pre-hook editing the input, with and without kwargs
def scale_input(module, args):
    return (args[0] * 0.5,)


def add_kw(module, args, kwargs):
    print("pre-hook kwargs:", sorted(kwargs))
    return args, kwargs


h = model[0].register_forward_pre_hook(scale_input)
h2 = model[0].register_forward_pre_hook(add_kw, with_kwargs=True, prepend=True)
print(model(x)[0])
h.remove(); h2.remove()
print(model(x)[0])

# forward hook with kwargs and always_call; output replaced
h = model[4].register_forward_hook(lambda m, a, kw, o: o + 100.0, with_kwargs=True)
print(model(x)[:2])
h.remove()

# backward pre-hook: scale grad_output before it reaches the layer
grads = []
h = model[2].register_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
h_b = model[2].register_full_backward_hook(lambda m, gi, go: grads.append((gi[0].abs().sum().item(), go[0].abs().sum().item())))
model.zero_grad()
model(x).sum().backward()
w_scaled = model[2].weight.grad.clone()
h.remove(); h_b.remove()
model.zero_grad()
model(x).sum().backward()
print(torch.allclose(w_scaled, 10 * model[2].weight.grad), [f"{a:.3f}/{b:.3f}" for a, b in grads])

# tensor hooks on intermediate activations
feat_grads = {}
xr = x.clone().requires_grad_()
h1 = model[1](model[0](xr))
h1.retain_grad()
hh = h1.register_hook(lambda g: feat_grads.setdefault("relu", g.clone()))
y = model[4](model[3](model[2](h1)))
y[:, 1].sum().backward()
print(torch.equal(feat_grads["relu"], h1.grad), h1.grad.shape)
print(h1.grad[0])
hh.remove()
h1.grad = None

# a tensor hook that zeroes part of the gradient
xr2 = x.clone().requires_grad_()
xr2.register_hook(lambda g: g * torch.tensor([1.0, 0.0, 1.0, 0.0]))
model(xr2).sum().backward()
print(xr2.grad[:2])

# global forward hook sees every module call
calls = []
g = register_module_forward_hook(lambda m, i, o: calls.append(type(m).__name__))
model(x)
g.remove()
model(x)
print(calls)

# hooks and state: forward hooks survive state_dict round-trip, no extra keys
hk = model[0].register_forward_hook(save("again"))
sd = model.state_dict()
print(list(sd.keys()))
model.load_state_dict(sd)
model(x)
print("again" in activations)
hk.remove()
hk.remove()
print(len(model[0]._forward_hooks), len(model[0]._forward_pre_hooks), len(model[2]._backward_pre_hooks))
