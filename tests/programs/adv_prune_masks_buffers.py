# torch.nn.utils.prune the way the tutorial walks through it: l1_unstructured and ln_structured on a
# conv, named_buffers()/weight_mask, forward pre-hooks, PruningContainer history, is_pruned, remove,
# custom_from_mask, identity, and the error messages for bad amounts / names.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc = nn.Linear(4 * 2 * 2, 5)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.fc(x.flatten(1))


model = LeNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_((torch.arange(p.numel(), dtype=torch.float32).mul(13).add(i).remainder(17) - 8).view_as(p) / 16)

module = model.conv1
print(list(module.named_parameters())[0][0], [n for n, _ in module.named_buffers()])
prune.l1_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()])
print([n for n, _ in module.named_buffers()])
print(int((module.weight_mask == 0).sum()), module.weight_mask.dtype, module.weight.shape)
print(len(module._forward_pre_hooks), list(module._forward_pre_hooks.keys()) == [0] or "ids")
prune.l1_unstructured(module, name="bias", amount=1)
scratch = nn.Linear(5, 4)
prune.random_unstructured(scratch, name="weight", amount=0.25)
print(int((scratch.weight_mask == 0).sum()), int((scratch.weight == 0).sum()) >= 5)
print(module.bias_mask, module.bias)

prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(int((module.weight_mask == 0).sum()))
print(module.weight_mask.flatten(1).sum(dim=1))
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(type(hook).__name__, len(list(hook)))
print([type(h).__name__ for h in hook], hook._pruning_methods[-1].dim, hook._pruning_methods[-1].n)

# conv2 with a user mask, fc with the identity (all-ones mask)
mask = (torch.arange(model.conv2.weight.numel()) % 3 != 0).float().view_as(model.conv2.weight)
prune.custom_from_mask(model.conv2, name="weight", mask=mask)
prune.identity(model.fc, "weight")
print(int(model.conv2.weight_mask.sum()), int(model.fc.weight_mask.sum()), model.fc.weight_mask.numel())
print(prune.is_pruned(model), prune.is_pruned(nn.Linear(2, 2)))

x = torch.linspace(-1, 1, 36).view(1, 1, 6, 6)
out = model(x)
print(out.detach())
out.sum().backward()
print(model.conv2.weight_orig.grad.flatten()[:9])
print(model.conv2.weight_orig.grad.flatten()[:9].eq(0).tolist())
print(sorted(model.state_dict().keys()))

for m, n in [(model.conv1, "weight"), (model.conv1, "bias"), (model.conv2, "weight"), (model.fc, "weight")]:
    prune.remove(m, n)
print(sorted(model.state_dict().keys()))
print(isinstance(model.conv1.weight, nn.Parameter), prune.is_pruned(model))
print(f"{float((model.conv1.weight == 0).sum()) / model.conv1.weight.numel():.3f}")

errors = [
    lambda: prune.l1_unstructured(model.fc, "weight", amount=1.5),
    lambda: prune.l1_unstructured(model.fc, "weight", amount=-1),
    lambda: prune.l1_unstructured(model.fc, "weight", amount=1000),
    lambda: prune.l1_unstructured(model.fc, "nonexistent", amount=0.1),
    lambda: prune.remove(model.fc, "weight"),
    lambda: prune.ln_structured(model.fc, "weight", amount=0.2, n=1, dim=5),
]
for fn in errors:
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
