# Ensembling models that carry BatchNorm buffers (the torch.func model-ensembling tutorial plus
# the "vmap and BatchNorm" notes): stack_module_state returns stacked running stats, vmap over
# (params, buffers) updates each member's statistics; an unbatched BatchNorm in train mode errors.
import copy

import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 5)
        self.bn = nn.BatchNorm1d(5)
        self.fc2 = nn.Linear(5, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


models = [Net() for _ in range(3)]
with torch.no_grad():
    for m, model in enumerate(models):
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (0.7 + 0.2 * m) + i).view(p.shape) * 0.5)

params, buffers = stack_module_state(models)
print(sorted(buffers))
print({k: tuple(v.shape) for k, v in buffers.items()})
print(buffers["bn.num_batches_tracked"])

base = copy.deepcopy(models[0])


def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))


x = torch.linspace(-1, 1, 18).view(6, 3)
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print("train-mode ensemble out:", tuple(out.shape))
print(out[:, :2].detach().round(decimals=4))
print("stacked running_mean after one step:")
print(buffers["bn.running_mean"].round(decimals=4))
print(buffers["bn.num_batches_tracked"])
print("base model buffers untouched:", base.bn.running_mean.abs().sum().item(), base.bn.num_batches_tracked.item())

loop = torch.stack([model(x) for model in models])
print("matches loop:", torch.allclose(out, loop, atol=1e-5))
print("loop running_mean member 1:", models[1].bn.running_mean.round(decimals=4))

# a single model vmapped over examples in train mode: the running stats are not batched
single = Net()
try:
    vmap(single)(x.view(3, 2, 3))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])

single.eval()
print("eval mode works:", tuple(vmap(single)(x.view(3, 2, 3)).shape))

# eval-mode ensemble uses the stacked statistics
base.eval()
with torch.no_grad():
    out_eval = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
for model in models:
    model.eval()
loop_eval = torch.stack([model(x) for model in models])
print("eval ensemble matches loop:", torch.allclose(out_eval, loop_eval, atol=1e-5))
print(out_eval[0].round(decimals=3))
