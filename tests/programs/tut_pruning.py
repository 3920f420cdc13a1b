# The "Pruning Tutorial", scaled down and deterministic: LeNet-style model, prune.l1_unstructured
# and prune.ln_structured on a conv layer (weight_orig parameter + weight_mask buffer + forward
# pre-hook), iterative pruning and the PruningContainer history, prune.remove to make it
# permanent, global_unstructured over several layers, and sparsity bookkeeping.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(4 * 2 * 2, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        return self.fc2(F.relu(self.fc1(x)))


model = LeNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.37 + i).view(p.shape) * 0.5)
module = model.conv1
print(list(module.named_parameters())[1][0], list(module.named_buffers()))

prune.l1_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
print(module.weight_mask[0], int(module.weight_mask.sum()), module.weight_mask.numel())
print(module.weight[0], module.weight.grad_fn.name() if module.weight.grad_fn else None)
print(type(module._forward_pre_hooks).__name__, [type(h).__name__ for h in module._forward_pre_hooks.values()])
prune.ln_structured(module, name="weight", amount=1, n=2, dim=0)
print(module.weight_mask.sum(dim=(1, 2, 3)))
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(type(hook).__name__, len(hook), [type(h).__name__ for h in hook])
prune.l1_unstructured(module, name="bias", amount=1)
print(module.bias, sorted(k for k in model.state_dict().keys() if k.startswith('conv1')))
x = torch.cos(torch.arange(2 * 1 * 10 * 10, dtype=torch.float32) * 0.1).view(2, 1, 10, 10)
out = model(x)
out.sum().backward()
print(out, module.weight_orig.grad[0, 0])
prune.remove(module, 'weight')
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()], prune.is_pruned(model))

parameters_to_prune = ((model.conv2, 'weight'), (model.fc1, 'weight'), (model.fc2, 'weight'))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.5)
for name, m in (("conv2", model.conv2), ("fc1", model.fc1), ("fc2", model.fc2)):
    print("Sparsity in {}.weight: {:.2f}%".format(name, 100. * float(torch.sum(m.weight == 0)) / float(m.weight.nelement())))
total_zero = sum(float(torch.sum(m.weight == 0)) for m, _ in parameters_to_prune)
print("Global sparsity: {:.2f}%".format(100. * total_zero / sum(m.weight.nelement() for m, _ in parameters_to_prune)))
print(model(x))
try:
    prune.l1_unstructured(model.fc2, name="weight", amount=1.5)
except ValueError as e:
    print(type(e).__name__, e)
