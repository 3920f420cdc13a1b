# Old-style torch.nn.utils.weight_norm / spectral_norm hooks next to the new
# parametrizations versions: parameter names, state_dict keys, hooks installed, removal.
import warnings
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm, spectral_norm, remove_spectral_norm
from torch.nn.utils import parametrizations as PZ
import torch.nn.utils.parametrize as P

warnings.simplefilter("ignore")


def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) + 0.1 * i)
    return m


lin = fill(nn.Linear(3, 2))
wn = weight_norm(lin, name="weight", dim=0)
print(wn is lin, [n for n, _ in lin.named_parameters()])
print(lin.weight_g)
print(lin.weight_v)
print(list(lin._forward_pre_hooks.values())[0].__class__.__name__)
print(list(lin.state_dict().keys()))
x = torch.linspace(0, 1, 6).view(2, 3)
print(lin(x))
try:
    weight_norm(lin)
except RuntimeError as e:
    print(type(e).__name__, e)
remove_weight_norm(lin)
print([n for n, _ in lin.named_parameters()], len(lin._forward_pre_hooks))
print(lin.weight)
try:
    remove_weight_norm(lin)
except ValueError as e:
    print(type(e).__name__, e)

conv = fill(nn.Conv1d(2, 3, 2))
weight_norm(conv, dim=None)
print(conv.weight_g, conv.weight_v.shape)
remove_weight_norm(conv)

lin2 = fill(nn.Linear(3, 2))
PZ.weight_norm(lin2)
print(lin2)
print(list(lin2.state_dict().keys()))
print(lin2.parametrizations.weight.original0)
print(lin2(x))
P.remove_parametrizations(lin2, "weight")
print(lin2.weight)

sn = fill(nn.Linear(4, 3))
spectral_norm(sn, n_power_iterations=3)
print(sorted(n for n, _ in sn.named_parameters()), sorted(n for n, _ in sn.named_buffers()))
print(list(sn.state_dict().keys()))
print(sn.weight_u.shape, sn.weight_v.shape, sn.weight_orig.requires_grad)
remove_spectral_norm(sn)
print([n for n, _ in sn.named_parameters()], [n for n, _ in sn.named_buffers()])

sn2 = fill(nn.Linear(4, 3))
PZ.spectral_norm(sn2)
print(sn2.parametrizations.weight)
print(list(sn2.state_dict().keys()))
print([n for n, _ in sn2.named_buffers()])
sn2.eval()
s = torch.linalg.matrix_norm(sn2.weight, ord=2)
print(f"{s.item():.3f}")

# checkpoints: spectral-norm format metadata, old weight_norm keys loading into the new one
old_sn = fill(spectral_norm(nn.Linear(3, 2)))
sd = old_sn.state_dict()
print(sd._metadata[""])
print(fill(spectral_norm(nn.Linear(3, 2))).load_state_dict(sd))
remove_spectral_norm(old_sn)
print(old_sn.state_dict()._metadata[""])
old_wn = fill(weight_norm(nn.Linear(3, 2)))
ckpt = old_wn.state_dict()
print(list(ckpt.keys()))
new_wn = PZ.weight_norm(nn.Linear(3, 2))
print(new_wn.load_state_dict(ckpt))
print(torch.allclose(new_wn(x), old_wn(x)), list(ckpt.keys()))
