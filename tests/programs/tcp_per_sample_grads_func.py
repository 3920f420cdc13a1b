# The torch.func per-sample-gradients tutorial, with the vmap(grad(...)) computation wrapped in
# torch.compile, plus functional_call on a compiled model's parameters dict.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


model = Net()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.6, 0.6, p.numel()).view_as(p) + 0.05 * i)

params = {k: v.detach() for k, v in model.named_parameters()}
data = torch.stack([torch.linspace(-1, 1, 3) * (k + 1) / 4 for k in range(5)])
targets = torch.tensor([0, 1, 1, 0, 1])


def loss_fn(params, x, y):
    out = functional_call(model, params, (x.unsqueeze(0),))
    return F.cross_entropy(out, y.unsqueeze(0))


@torch.compile
def per_sample_grads(params, data, targets):
    return vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, data, targets)


grads = per_sample_grads(params, data, targets)
for k, g in grads.items():
    print(k, tuple(g.shape))
print(torch.round(grads["fc2.bias"], decimals=4))

# the mean of per-sample grads equals the batch gradient
model.zero_grad()
F.cross_entropy(model(data), targets).backward()
for k, p in model.named_parameters():
    print(k, torch.allclose(grads[k].mean(0), p.grad, atol=1e-6))

cmodel = torch.compile(model)
shifted = {k: v + 0.1 for k, v in params.items()}
out = functional_call(cmodel, shifted, (data,))
print(torch.round(out, decimals=4))
print(sorted(dict(cmodel.named_parameters()).keys()))
