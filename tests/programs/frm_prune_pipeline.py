# Magnitude pruning with torch.nn.utils.prune: l1_unstructured, ln_structured,
# global_unstructured across layers, masks/buffers/forward-pre-hooks, sparsity report,
# and prune.remove to make it permanent.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class LeNetish(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.fc1 = nn.Linear(8, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        x = torch.relu(self.conv(x)).flatten(1)
        return self.fc2(torch.relu(self.fc1(x)))


model = LeNetish()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        n = p.numel()
        p.copy_(((torch.arange(n, dtype=torch.float32) * 7 + i) % 11 - 5).view_as(p) / 10)

prune.l1_unstructured(model.fc1, name="weight", amount=0.5)
print([n for n, _ in model.fc1.named_parameters()], [n for n, _ in model.fc1.named_buffers()])
print(model.fc1.weight_mask)
print(model.fc1.weight)
hook = list(model.fc1._forward_pre_hooks.values())[0]
print(type(hook).__name__, hook._tensor_name, hook.amount)
print(prune.is_pruned(model), prune.is_pruned(model.fc2))

prune.ln_structured(model.conv, name="weight", amount=1, n=2, dim=0)
print(model.conv.weight_mask.sum(dim=(1, 2, 3)))
prune.l1_unstructured(model.fc1, name="weight", amount=2)
hook = list(model.fc1._forward_pre_hooks.values())[0]
print(type(hook).__name__, [type(h).__name__ for h in hook], int(model.fc1.weight_mask.sum()))

params = [(model.fc1, "weight"), (model.fc2, "weight"), (model.fc2, "bias")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.4)
for m, name in params:
    mask = getattr(m, name + "_mask")
    print(name, f"{100.0 * float((mask == 0).sum()) / mask.numel():.2f}%")
total = sum(getattr(m, n).numel() for m, n in params)
zeros = sum(int((getattr(m, n) == 0).sum()) for m, n in params)
print(f"global sparsity {100.0 * zeros / total:.2f}%")

x = torch.linspace(-1, 1, 16).view(1, 1, 4, 4)
out = model(x)
out.sum().backward()
print(out)
print(model.fc2.weight_orig.grad)

print(list(model.state_dict().keys()))
for m, name in params + [(model.conv, "weight")]:
    prune.remove(m, name)
print(list(model.state_dict().keys()))
print(type(model.fc1.weight).__name__, len(model.fc1._forward_pre_hooks), prune.is_pruned(model))
try:
    prune.remove(model.fc1, "weight")
except ValueError as e:
    print(type(e).__name__, e)

lin = nn.Linear(3, 2)
prune.custom_from_mask(lin, "weight", mask=torch.tensor([[1, 0, 1], [0, 1, 1]]))
print(lin.weight_mask)
prune.identity(lin, "bias")
print(lin.bias_mask)
try:
    prune.l1_unstructured(lin, "weight", amount=1.5)
except ValueError as e:
    print(type(e).__name__, e)
try:
    prune.l1_unstructured(nn.Linear(3, 2), "weight", amount=10)
except ValueError as e:
    print(type(e).__name__, e)
