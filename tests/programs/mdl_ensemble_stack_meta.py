# The PyTorch "model ensembling" tutorial idiom: stack_module_state over several copies, a
# stateless base model moved to the 'meta' device, and vmap(functional_call) over the stack.
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
base = copy.deepcopy(models[0]).to("meta")
print(base[0].weight.device, base[0].weight.shape, base[0].weight.is_meta)


def f(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.linspace(-1, 1, 8).view(4, 2)
out = vmap(f, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape)
print(out[:, :2, 0])
out.pow(2).mean().backward()
print(params["2.bias"].grad)
