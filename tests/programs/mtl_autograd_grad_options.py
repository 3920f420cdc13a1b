# torch.autograd.grad / backward options that multi-task code leans on: allow_unused and
# materialize_grads for heads a task never touches, backward(inputs=...) to route one task's
# loss into the trunk only, retain_grad on the shared representation, and the errors otherwise.
import torch
import torch.nn as nn
import torch.nn.functional as F

trunk = nn.Linear(3, 4)
heads = nn.ModuleDict({"a": nn.Linear(4, 1), "b": nn.Linear(4, 2)})
with torch.no_grad():
    for i, p in enumerate(list(trunk.parameters()) + list(heads.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape) * 0.5)

x = torch.stack([torch.linspace(-1, 1, 6), torch.linspace(1, 0, 6), torch.sin(torch.arange(6.0))], 1)
h = trunk(x)
h.retain_grad()
loss_a = F.mse_loss(heads["a"](h).squeeze(1), x[:, 0])
loss_b = F.cross_entropy(heads["b"](h), torch.tensor([0, 1, 1, 0, 1, 0]))
all_params = list(trunk.parameters()) + list(heads.parameters())

try:
    torch.autograd.grad(loss_a, all_params, retain_graph=True)
except RuntimeError as e:
    print("RuntimeError", e)
ga = torch.autograd.grad(loss_a, all_params, retain_graph=True, allow_unused=True)
print([None if g is None else tuple(g.shape) for g in ga])
gm = torch.autograd.grad(loss_a, all_params, retain_graph=True, allow_unused=True, materialize_grads=True)
print([round(g.abs().sum().item(), 4) for g in gm])
try:
    torch.autograd.grad(loss_a, all_params, retain_graph=True, allow_unused=False, materialize_grads=True)
except ValueError as e:
    print("ValueError", e)

loss_b.backward(inputs=list(trunk.parameters()), retain_graph=True)
print("head b grad after inputs=trunk:", heads["b"].weight.grad)
print("trunk grad:", trunk.weight.grad.round(decimals=4))
print("h.grad is None (not in inputs):", h.grad is None)
(loss_a + loss_b).backward(retain_graph=True)
print("h.grad:", h.grad.shape, round(h.grad.norm().item(), 4))
torch.autograd.backward([loss_a, loss_b], grad_tensors=[torch.tensor(2.0), torch.tensor(0.5)], inputs=[h],
                        retain_graph=True)
print("weighted h.grad accumulated:", round(h.grad.norm().item(), 4))
try:
    torch.autograd.backward([loss_a, loss_b], grad_tensors=[torch.tensor(1.0)])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    loss_a.backward(inputs=[])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.autograd.grad(loss_a, x)
except RuntimeError as e:
    print("RuntimeError", e)
g_h, = torch.autograd.grad([loss_a, loss_b], [h], grad_outputs=[torch.tensor(1.0), torch.tensor(-1.0)], retain_graph=True)
print("difference of task grads at h:", g_h.sum(1).round(decimals=4))
print(loss_a.grad_fn.name(), loss_b.grad_fn.name(), h.grad_fn.name())
