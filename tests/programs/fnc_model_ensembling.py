# Model ensembling with torch.func (the PyTorch tutorial): stack_module_state over several
# copies of one model, vmap(functional_call) with in_dims=(0, 0, None) for a shared minibatch
# and (0, 0, 0) for one minibatch per model, then training all models at once with one optimizer.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


num_models = 4
models = [SimpleMLP() for _ in range(num_models)]
with torch.no_grad():
    for m, model in enumerate(models):
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.3 + 0.1 * m) + i).view(p.shape) * 0.4)

data = torch.cos(torch.arange(32 * 4, dtype=torch.float32).view(32, 4) * 0.37)
targets = (data.sum(dim=1) > 0).long()
minibatches = data.view(num_models, 8, 4)
minibatch = data[:8]

params, buffers = stack_module_state(models)
print(list(params.keys()), list(buffers.keys()))
print({k: tuple(v.shape) for k, v in params.items()})
print("leaf:", params["fc1.weight"].is_leaf, "requires_grad:", params["fc1.weight"].requires_grad)

base_model = copy.deepcopy(models[0])  # the tutorial also moves it to "meta"


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


predictions1_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print("same minibatch:", tuple(predictions1_vmap.shape))
predictions1_loop = torch.stack([model(minibatch) for model in models])
print("matches loop:", torch.allclose(predictions1_vmap, predictions1_loop, atol=1e-6))

predictions2_vmap = vmap(fmodel)(params, buffers, minibatches)
predictions2_loop = torch.stack([model(mb) for model, mb in zip(models, minibatches)])
print("different minibatches:", tuple(predictions2_vmap.shape),
      torch.allclose(predictions2_vmap, predictions2_loop, atol=1e-6))
print(predictions2_vmap[:, 0].detach().round(decimals=4))

# train the whole ensemble: the stacked parameters are ordinary leaves
opt = torch.optim.SGD(params.values(), lr=0.2)
batch_targets = targets.view(num_models, 8)
for step in range(30):
    logits = vmap(fmodel)(params, buffers, minibatches)
    per_model = vmap(F.cross_entropy)(logits, batch_targets)
    loss = per_model.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(f"step {step:2d} per-model losses", [f"{l:.4f}" for l in per_model.tolist()])

with torch.no_grad():
    votes = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, data).softmax(-1).mean(0)
print("ensemble accuracy:", (votes.argmax(-1) == targets).float().mean().item())
