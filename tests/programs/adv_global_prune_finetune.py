# Iterative global magnitude pruning (lottery-ticket style): global_unstructured over several layers,
# fine-tune between rounds (pruned weights stay zero via weight_orig * weight_mask), report per-layer
# sparsity, then make it permanent with prune.remove and check state_dict keys.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

model = nn.Sequential(
    nn.Linear(3, 16), nn.ReLU(),
    nn.Linear(16, 16), nn.ReLU(),
    nn.Linear(16, 1),
)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 2.1 + i).view_as(p) * 0.4)

t = torch.linspace(-1, 1, 40)
X = torch.stack([t, t.pow(2), torch.sin(3 * t)], dim=1)
y = (0.5 * t - t.pow(2) + 0.3 * torch.sin(3 * t)).unsqueeze(1)

parameters_to_prune = [(model[0], "weight"), (model[2], "weight"), (model[4], "weight")]


def train(steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(X), y)
        loss.backward()
        opt.step()
    return loss.item()


def sparsity_report():
    parts = []
    total, zeros = 0, 0
    for m, name in parameters_to_prune:
        w = getattr(m, name)
        z = int(torch.sum(w == 0))
        parts.append(f"{100.0 * z / w.nelement():.1f}%")
        total += w.nelement()
        zeros += z
    return parts, f"{100.0 * zeros / total:.2f}%"


print(f"initial loss {train(20):.4f}")
for rnd in range(3):
    prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.3)
    print("round", rnd, *sparsity_report())
    loss = train(15)
    print(f"  fine-tuned loss {loss:.3f}")
    print("  pruned still zero:", all(bool((getattr(m, n)[getattr(m, n + "_mask") == 0] == 0).all())
                                      for m, n in parameters_to_prune))

hook = next(iter(model[2]._forward_pre_hooks.values()))
print(type(hook).__name__, len(hook._pruning_methods), [type(h).__name__ for h in hook])
print(model[2].weight_mask.sum().item(), model[2].weight_orig.shape)
print(model[2].weight_orig.grad is not None, model[2].weight.grad_fn.name())

# global pruning with an importance score: prune by |w| * importance
scores = {(id(m), n): torch.ones_like(getattr(m, n)) * (k + 1) for k, (m, n) in enumerate(parameters_to_prune)}
before = sparsity_report()[1]
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured,
                          importance_scores={(m, n): scores[(id(m), n)] for m, n in parameters_to_prune},
                          amount=10)
print(before, "->", sparsity_report()[1], *sparsity_report()[0])

print([k for k in model.state_dict().keys()])
for m, n in parameters_to_prune:
    prune.remove(m, n)
print([k for k in model.state_dict().keys()])
print(prune.is_pruned(model), sparsity_report()[1])
try:
    prune.global_unstructured(parameters_to_prune, pruning_method=prune.LnStructured, amount=0.2)
except Exception as e:
    print(type(e).__name__, e)
try:
    prune.global_unstructured(iter([]), pruning_method=prune.L1Unstructured, amount=0.2)
except Exception as e:
    print(type(e).__name__, e)
