# The PyTorch "model ensembling" tutorial idiom: stack_module_state over several copies, a
# stateless deep-copied base model, and vmap(functional_call) over the stacked weights;
# compare with looping over the models and train the stacked leaves directly.
import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

torch.set_printoptions(precision=4)
models = []
for k in range(3):
    m = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i + k).view_as(p))
    models.append(m)
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
base = copy.deepcopy(models[0])  # stateless template (the tutorial moves it to "meta")
print(base[0].weight.shape, sum(p.numel() for p in base.parameters()))


def f(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.linspace(-1, 1, 8).view(4, 2)
out = vmap(f, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape)
print(out[:, :2, 0])
out.pow(2).mean().backward()
print(params["2.bias"].grad)
loop = torch.stack([m(x) for m in models])
print("matches loop:", torch.allclose(out, loop, atol=1e-6))
opt = torch.optim.SGD(params.values(), lr=0.1)
y = x.sum(1, keepdim=True)
for step in range(5):
    opt.zero_grad()
    loss = (vmap(f, in_dims=(0, 0, None))(params, buffers, x) - y).pow(2).mean(dim=(1, 2))
    loss.sum().backward()
    opt.step()
    print(step, [f"{v:.4f}" for v in loss.tolist()])
print(models[0][0].weight.grad, params["0.weight"].grad.shape)
