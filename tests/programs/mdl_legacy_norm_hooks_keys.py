# Legacy reparametrization hooks (nn.utils.weight_norm / nn.utils.spectral_norm) next to the
# parametrization versions: state_dict keys, buffers, forward-pre-hook objects, remove_* and errors,
# and how a GAN user migrates a checkpoint key by key.
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm, spectral_norm, remove_spectral_norm
from torch.nn.utils import parametrizations as PZ
import torch.nn.utils.parametrize as P
import warnings

warnings.simplefilter("ignore")


def init(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))


conv = nn.Conv1d(2, 3, 3)
init(conv)
x = torch.cos(torch.arange(14, dtype=torch.float32)).reshape(1, 2, 7)
ref = conv(x)
weight_norm(conv, name="weight", dim=0)
print([(k, tuple(v.shape)) for k, v in conv.state_dict().items()])
print([type(h).__name__ for h in conv._forward_pre_hooks.values()])
print(conv.weight_g.flatten())
print(torch.allclose(conv(x), ref, atol=1e-6), conv.weight.grad_fn is not None)
try:
    weight_norm(conv)
except RuntimeError as e:
    print("RuntimeError", e)
remove_weight_norm(conv)
print(sorted(conv.state_dict().keys()), len(conv._forward_pre_hooks))
try:
    remove_weight_norm(conv)
except ValueError as e:
    print("ValueError", e)

lin = nn.Linear(4, 3)
init(lin)
weight_norm(lin, dim=None)
print(lin.weight_g.shape, lin.weight_v.shape, f"{lin.weight_g.item():.4f}")
remove_weight_norm(lin)

lin = nn.Linear(4, 3)
init(lin)
spectral_norm(lin, n_power_iterations=3)
print([(k, tuple(v.shape)) for k, v in lin.state_dict().items()])
print(sorted(n for n, _ in lin.named_buffers()), sorted(n for n, _ in lin.named_parameters()))
try:
    spectral_norm(lin)
except RuntimeError as e:
    print("RuntimeError", e)
remove_spectral_norm(lin)
print(sorted(lin.state_dict().keys()))

conv_t = nn.ConvTranspose2d(2, 5, 3)
spectral_norm(conv_t)
print(conv_t.weight_u.shape, conv_t.weight_v.shape, conv_t.weight_orig.shape)

# the parametrization versions
lin2 = nn.Linear(4, 3)
init(lin2)
PZ.weight_norm(lin2)
print([(k, tuple(v.shape)) for k, v in lin2.state_dict().items()])
print(lin2.parametrizations.weight.original0.flatten())
print(torch.allclose(lin2.weight, torch.sin(torch.arange(12.0)).view(3, 4), atol=1e-6))
PZ.spectral_norm(lin2, name="bias", dim=0) if False else None
PZ.spectral_norm(lin2, n_power_iterations=2)
print(len(lin2.parametrizations.weight), [type(m).__name__ for m in lin2.parametrizations.weight])
print(sorted(lin2.state_dict().keys()))
print(lin2.parametrizations.weight[1].n_power_iterations, lin2.parametrizations.weight[1].dim,
      lin2.parametrizations.weight[1].eps)
P.remove_parametrizations(lin2, "weight")
print(sorted(lin2.state_dict().keys()), type(lin2).__name__)

# migrating an old checkpoint: weight_g/weight_v -> parametrizations.weight.original0/1
old = nn.Linear(4, 3)
init(old)
weight_norm(old)
sd = old.state_dict()
new = PZ.weight_norm(nn.Linear(4, 3))
mapping = {"weight_g": "parametrizations.weight.original0", "weight_v": "parametrizations.weight.original1"}
res = new.load_state_dict({mapping.get(k, k): v for k, v in sd.items()})
print(res, torch.allclose(new.weight, old.weight))
