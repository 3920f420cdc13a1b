# Iterative magnitude pruning of a small CNN: structured + unstructured pruning
# stacked on the same weight (PruningContainer), sparsity reports, hooks, remove().
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3)
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).flatten(1))


model = Small()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape))


def sparsity_report(m):
    total = zeros = 0
    for name, mod in m.named_modules():
        if isinstance(mod, (nn.Conv2d, nn.Linear)):
            w = mod.weight
            z = int((w == 0).sum())
            total += w.nelement()
            zeros += z
            print(f"  {name}.weight sparsity {100.0 * z / w.nelement():.2f}%")
    print(f"  global {100.0 * zeros / total:.2f}%")


prune.ln_structured(model.conv, name="weight", amount=0.5, n=2, dim=0)
print("channel norms zeroed:", (model.conv.weight.flatten(1).abs().sum(1) == 0).tolist())
prune.l1_unstructured(model.conv, name="weight", amount=0.25)
hook = next(iter(model.conv._forward_pre_hooks.values()))
print(type(hook).__name__, [type(h).__name__ for h in hook])
print("mask sum:", int(model.conv.weight_mask.sum()), "of", model.conv.weight_mask.numel())
prune.random_unstructured(model.fc, name="bias", amount=0)
prune.l1_unstructured(model.fc, name="weight", amount=13)
sparsity_report(model)
print([k for k in model.state_dict().keys()])
print([n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_buffers()])
print(prune.is_pruned(model))

x = torch.cos(torch.arange(2 * 2 * 4 * 4, dtype=torch.float32)).reshape(2, 2, 4, 4)
out = model(x)
out.sum().backward()
print("grad on orig zero where masked:",
      bool((model.conv.weight_orig.grad[model.conv.weight_mask == 0] == 0).all()))
print(model.fc.weight_orig.grad.shape, model.fc.weight.grad)

for name in ["weight"]:
    prune.remove(model.conv, name)
    prune.remove(model.fc, name)
prune.remove(model.fc, "bias")
print(list(model.state_dict().keys()))
print(prune.is_pruned(model), type(model.conv.weight).__name__)
sparsity_report(model)
for bad in [1.5, -0.1, 100]:
    try:
        prune.l1_unstructured(model.fc, "weight", amount=bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    prune.remove(model.conv, "weight")
except ValueError as e:
    print(type(e).__name__, e)
try:
    prune.ln_structured(model.fc, "bias", amount=1, n=1, dim=0)
except ValueError as e:
    print(type(e).__name__, e)
