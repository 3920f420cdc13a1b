# Per-task gradients with torch.func: functional_call over a dict of shared parameters, grad with
# has_aux returning per-task metrics, vmap over stacked task targets, and the task-gradient Gram
# matrix / cosine similarities that gradient-balancing methods (GradVac, CAGrad) start from.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, grad_and_value, vmap

torch.set_default_dtype(torch.float64)


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


model = Trunk()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.81 + i).reshape(p.shape) * 0.6)

params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.stack([torch.linspace(-1, 1, 10), torch.cos(torch.linspace(0, 3, 10))], 1)
# three tasks; each task reads one output column with a different target
task_targets = torch.stack([x[:, 0] ** 2, x[:, 1] - x[:, 0], torch.sin(3 * x[:, 0])])  # (3, 10)
task_ids = torch.arange(3)


def task_loss(p, task_id, target):
    out = functional_call(model, p, (x,))
    pred = out.index_select(1, task_id.reshape(1)).squeeze(1)
    loss = F.mse_loss(pred, target)
    return loss, {"max_err": (pred - target).abs().max()}


g, aux = grad(task_loss, has_aux=True)(params, task_ids[0], task_targets[0])
print(sorted(g.keys()), {k: tuple(v.shape) for k, v in g.items()})
print("aux:", aux)

per_task = vmap(grad(task_loss, has_aux=True), in_dims=(None, 0, 0))(params, task_ids, task_targets)
grads, auxes = per_task
print({k: tuple(v.shape) for k, v in grads.items()})
print("max errs:", auxes["max_err"])

# check against a Python loop
for t in range(3):
    gt, _ = grad(task_loss, has_aux=True)(params, task_ids[t], task_targets[t])
    print(t, all(torch.allclose(gt[k], grads[k][t]) for k in gt))

flat = torch.cat([v.flatten(1) for v in grads.values()], dim=1)
print("flat task grads:", tuple(flat.shape))
gram = flat @ flat.T
print("gram:\n", gram.round(decimals=5))
normed = F.normalize(flat, dim=1)
cos = normed @ normed.T
print("cosine:\n", cos.round(decimals=4))
print("pairwise cos 0-1:", round(F.cosine_similarity(flat[0], flat[1], dim=0).item(), 4))

vals = vmap(grad_and_value(task_loss, has_aux=True), in_dims=(None, 0, 0))(params, task_ids, task_targets)
(gv, (loss_vals, aux2)) = vals
print("losses:", loss_vals.round(decimals=5), loss_vals.requires_grad)

# a single SGD step on the averaged gradient, functionally
new_params = {k: params[k] - 0.1 * grads[k].mean(0) for k in params}
before = torch.stack([task_loss(params, i, y)[0] for i, y in zip(task_ids, task_targets)])
after = torch.stack([task_loss(new_params, i, y)[0] for i, y in zip(task_ids, task_targets)])
print("before", before.round(decimals=5))
print("after ", after.round(decimals=5))
print("model params untouched:", torch.equal(model.fc1.weight, params["fc1.weight"]))
