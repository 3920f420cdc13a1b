# Per-sample gradients through a BatchNorm network, the functorch way: BatchNorm's running-stat
# update cannot be vmapped, so either the model is put in eval mode or
# replace_all_batch_norm_modules_ stops tracking running stats; both compared against loops.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, replace_all_batch_norm_modules_, vmap

torch.set_default_dtype(torch.float64)


def make_model():
    model = nn.Sequential(nn.Conv1d(3, 4, 3), nn.BatchNorm1d(4), nn.Tanh(), nn.Flatten(), nn.Linear(12, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).view_as(p))
        model[1].running_mean.copy_(torch.tensor([0.1, -0.1, 0.2, 0.0]))
        model[1].running_var.copy_(torch.tensor([1.0, 0.5, 2.0, 1.5]))
    return model


x = torch.sin(torch.arange(6 * 3 * 5, dtype=torch.float64) * 0.23).view(6, 3, 5)
y = torch.tensor([0, 1, 1, 0, 1, 0])


def per_sample_grads(model):
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def loss(p, b, xi, yi):
        return F.cross_entropy(functional_call(model, (p, b), (xi.unsqueeze(0),)), yi.unsqueeze(0))

    return vmap(grad(loss), in_dims=(None, None, 0, 0))(params, buffers, x, y)


# 1) eval mode: running statistics are used, nothing is updated
model = make_model().eval()
g_eval = per_sample_grads(model)
print({k: tuple(v.shape) for k, v in g_eval.items()})
loop = []
for i in range(6):
    model.zero_grad()
    F.cross_entropy(model(x[i:i + 1]), y[i:i + 1]).backward()
    loop.append(model[1].weight.grad.clone())
print("eval mode matches loop:", torch.allclose(torch.stack(loop), g_eval["1.weight"]))
print("bn weight grads\n", g_eval["1.weight"])

# 2) patched: batch statistics of a single example, running stats never touched
model = make_model().train()
replace_all_batch_norm_modules_(model)
print("running_mean after patch:", model[1].running_mean, "track:", model[1].track_running_stats)
g_patch = per_sample_grads(model)
loop = []
for i in range(6):
    model.zero_grad()
    F.cross_entropy(model(x[i:i + 1]), y[i:i + 1]).backward()
    loop.append(model[4].bias.grad.clone())
print("patched matches loop:", torch.allclose(torch.stack(loop), g_patch["4.bias"]))
print("running_mean still untouched:", model[1].running_mean)
print("last-layer bias grads\n", g_patch["4.bias"])
