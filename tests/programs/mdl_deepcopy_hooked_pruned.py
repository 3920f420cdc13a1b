# copy.deepcopy of models carrying forward hooks, pruning pre-hooks and parametrizations (the
# usual "keep an EMA/teacher copy" idiom): hooks fire in the copy, masks and originals are
# independent tensors, and edits to one model do not leak into the other.
import copy
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p))

seen = []
handle = net[1].register_forward_hook(lambda m, i, o: seen.append(("relu", tuple(o.shape))))
prune.l1_unstructured(net[2], "weight", amount=5)
P.register_parametrization(net[0], "weight", Symmetric())

x = torch.linspace(-2, 2, 8).reshape(2, 4)
try:
    copy.deepcopy(net)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
with torch.no_grad():  # common workaround: recompute pruned weight outside autograd
    net(x)
print(net[2].weight.grad_fn, net[2].weight.requires_grad, net[0].weight.grad_fn is None)
teacher = copy.deepcopy(net)
seen.clear()
print(torch.equal(net(x), teacher(x)), seen)
print(type(teacher[0]).__name__, type(teacher[0]).__mro__[1].__name__, P.is_parametrized(teacher[0]))
print(teacher[2].weight_mask.data_ptr() != net[2].weight_mask.data_ptr())
print(sorted(teacher.state_dict().keys()))
print(teacher[0].parametrizations.weight.original is net[0].parametrizations.weight.original)
print(len(teacher[2]._forward_pre_hooks), len(teacher[1]._forward_hooks))

handle.remove()
print(len(net[1]._forward_hooks), len(teacher[1]._forward_hooks))
seen.clear()
teacher(x)
net(x)
print(seen)

with torch.no_grad():
    net[0].parametrizations.weight.original.mul_(0)
    net[2].weight_orig.add_(1.0)
print(net[0].weight.abs().sum().item(), teacher[0].weight.abs().sum().item() > 0)
print(net[2].weight)
print(teacher[2].weight)

prune.remove(net[2], "weight")
print(prune.is_pruned(net), prune.is_pruned(teacher))
P.remove_parametrizations(teacher[0], "weight", leave_parametrized=True)
print(type(teacher[0]).__name__, teacher[0].weight)
print(type(net[0]).__name__)

s = copy.deepcopy(teacher.state_dict())
s["2.weight_mask"].zero_()
print(teacher[2].weight_mask.sum().item(), s["2.weight_mask"].sum().item())

loss = teacher(x).pow(2).sum()
loss.backward()
print(teacher[2].weight_orig.grad)
print(net[2].weight.grad)
