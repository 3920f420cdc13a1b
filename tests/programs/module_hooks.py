# Module hooks: capture activations with a forward hook, change inputs with a pre-hook, inspect grads.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape))

activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


h1 = model[1].register_forward_hook(get_activation("relu"))
x = torch.tensor([[1.0, -1.0, 0.5]])
out = model(x)
print(activation["relu"], out)

h2 = model[0].register_forward_pre_hook(lambda module, inputs: (inputs[0] * 2,))
print(model(x), activation["relu"])
h2.remove()
h1.remove()
print(model(x))

grads = {}
h3 = model[2].register_full_backward_hook(lambda m, gin, gout: grads.update(out=gout[0].clone()))
model(x).sum().backward()
print(grads["out"])
h3.remove()
print(type(h1).__name__)
