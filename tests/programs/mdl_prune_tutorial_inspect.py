# The official pruning tutorial's inspection steps on LeNet: named_parameters / named_buffers
# before and after pruning, print(module._forward_pre_hooks), the PruningContainer history after
# iterative pruning, hook handles printed and removed, and serialising the pruned state_dict.
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


model = LeNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.2)
module = model.conv1
print(list(module.named_parameters())[1])
print(list(module.named_buffers()))

prune.random_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
print(int((module.weight_mask == 0).sum()), module.weight.grad_fn.name())
print(module._forward_pre_hooks)

prune.l1_unstructured(module, name="bias", amount=3)
print(module._forward_pre_hooks)
print(module.bias_mask, module.bias)

prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(list(hook))
print(int((module.weight_mask.flatten(1).sum(1) == 0).sum()), "channels gone")
print(model.state_dict().keys())

handle = module.register_forward_hook(lambda m, i, o: print("  conv1 out", tuple(o.shape)))
print(handle)
x = torch.cos(torch.arange(2 * 28 * 28, dtype=torch.float32) * 0.01).view(2, 1, 28, 28)
y = model(x)
handle.remove()
print(y.shape, y.grad_fn.name())

new_model = LeNet()
for name, m in new_model.named_modules():
    if isinstance(m, nn.Conv2d):
        prune.l1_unstructured(m, name="weight", amount=0.2)
    elif isinstance(m, nn.Linear):
        prune.l1_unstructured(m, name="weight", amount=0.4)
print(dict(new_model.named_buffers()).keys())

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
print(len(buf.getvalue()) > 1000)
prune.remove(module, "weight")
prune.remove(module, "bias")
print(list(module.named_parameters())[0][0], list(module.named_buffers()), module._forward_pre_hooks)
