# Lottery-ticket style iterative magnitude pruning: train, global_unstructured L1 prune 30% per round,
# rewind surviving weights to their initial values (weight_orig.copy_ from a saved state_dict), retrain,
# report per-layer sparsity; deepcopy of a pruned model (fails) vs after prune.remove (works).
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import prune

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) ** 2 * 0.37 + i).view_as(p) * 0.6)
init_state = copy.deepcopy(model.state_dict())
layers = [(model[0], "weight"), (model[2], "weight"), (model[4], "weight")]

x = torch.stack([torch.sin(torch.arange(16.0) * 0.4 * (k + 1)) for k in range(4)], 1)
y = (x[:, 0] * x[:, 1] > 0).long()


def train(steps=15):
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


def sparsity(m):
    return 100.0 * float((m.weight == 0).sum()) / m.weight.nelement()


print(f"dense loss {train():.4f}")
for rnd in range(3):
    prune.global_unstructured(layers, pruning_method=prune.L1Unstructured, amount=0.3)
    with torch.no_grad():
        for idx, (m, _) in zip([0, 2, 4], layers):
            m.weight_orig.copy_(init_state[f"{idx}.weight"])
    zeros = sum(int((m.weight == 0).sum()) for m, _ in layers)
    total = sum(m.weight.nelement() for m, _ in layers)
    loss = train()
    print(f"round {rnd}: global sparsity {100.0 * zeros / total:.1f}% loss {loss:.4f}",
          [f"{sparsity(m):.1f}" for m, _ in layers])
    grad_on_pruned = (model[2].weight_orig.grad * (1 - model[2].weight_mask)).abs().sum().item()
    print("  grad on pruned entries of weight_orig:", f"{grad_on_pruned:.4f}",
          "weights stay zero:", bool((model[2].weight[model[2].weight_mask == 0] == 0).all()))

print(type(model[0]._forward_pre_hooks[next(iter(model[0]._forward_pre_hooks))]).__name__)
print([k for k in model.state_dict().keys() if k.startswith("2.")])
print(model[2].weight_mask.sum().item(), model[2].weight_mask.dtype)

try:
    teacher = copy.deepcopy(model)
except RuntimeError as e:
    print(type(e).__name__, e)

for m, name in layers:
    prune.remove(m, name)
teacher = copy.deepcopy(model)
print([k for k in teacher.state_dict().keys()])
print(torch.equal(teacher[2].weight, model[2].weight), f"{sparsity(teacher[2]):.1f}")
with torch.no_grad():
    acc = (teacher(x).argmax(1) == y).float().mean().item()
print(f"acc {acc:.3f}")
