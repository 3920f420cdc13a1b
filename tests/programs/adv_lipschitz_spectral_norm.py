# Certified-robustness style Lipschitz control: spectral normalisation of every Linear layer with
# torch.nn.utils.parametrizations.spectral_norm (and the older nn.utils.spectral_norm), the product
# of layer norms as a Lipschitz bound, and an empirical input-gradient check against it.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import spectral_norm


def make_layers():
    layers = [nn.Linear(4, 6), nn.Linear(6, 6), nn.Linear(6, 2)]
    with torch.no_grad():
        for k, layer in enumerate(layers):
            n = layer.weight.numel()
            # a dominant rank-one part makes power iteration converge in a few steps
            u = torch.linspace(1, 2, layer.weight.shape[0])
            v = torch.cos(torch.arange(layer.weight.shape[1], dtype=torch.float32) + k)
            layer.weight.copy_(3.0 * torch.outer(u, v) + 0.05 * torch.sin(torch.arange(n, dtype=torch.float32)).view_as(layer.weight))
            layer.bias.fill_(0.1)
    return layers


layers = make_layers()
true_sigmas = [torch.linalg.matrix_norm(l.weight.detach(), ord=2).item() for l in layers]
print("sigma before", [f"{s:.3f}" for s in true_sigmas])

sn_layers = [spectral_norm(l, n_power_iterations=5) for l in layers]
net = nn.Sequential(sn_layers[0], nn.ReLU(), sn_layers[1], nn.ReLU(), sn_layers[2])
print(parametrize.is_parametrized(net[0]), parametrize.is_parametrized(net[0], "bias"))
print(type(net[0].parametrizations.weight[0]).__name__, sorted(n for n, _ in net[0].named_buffers()))
print(sorted(net.state_dict().keys())[:4])

x = torch.stack([torch.linspace(-1, 1, 7), torch.cos(torch.arange(7.0)), torch.sin(torch.arange(7.0)),
                 torch.linspace(0, 1, 7) ** 2], 1)
net.train()
for _ in range(5):
    net(x)
net.eval()
with torch.no_grad():
    sig = [torch.linalg.matrix_norm(m.weight, ord=2).item() for m in (net[0], net[2], net[4])]
print("sigma after", [f"{s:.3f}" for s in sig])
bound = 1.0
for s in sig:
    bound *= s
print(f"lipschitz bound {bound:.3f}")

xg = x.clone().requires_grad_()
out = net(xg)
grad_norms = []
for c in range(2):
    g, = torch.autograd.grad(out[:, c].sum(), xg, retain_graph=True)
    grad_norms.append(g.norm(dim=1).max().item())
print("max input-gradient norms <= bound:", all(gn <= bound + 1e-4 for gn in grad_norms))

# margin-based certified radius: margin / (sqrt(2) * L)
with torch.no_grad():
    logits = net(x)
    top2 = logits.topk(2, dim=1).values
    radius = (top2[:, 0] - top2[:, 1]) / (2 ** 0.5 * bound)
print("certified radius", [round(r, 3) for r in radius.tolist()])

# removing the parametrization keeps the normalised weight
W_norm = net[0].weight.detach().clone()
parametrize.remove_parametrizations(net[0], "weight")
print(torch.allclose(net[0].weight, W_norm), parametrize.is_parametrized(net[0]))
print(f"{torch.linalg.matrix_norm(net[0].weight.detach(), ord=2).item():.3f}")

# the legacy hook-based API
old = nn.utils.spectral_norm(make_layers()[1], n_power_iterations=10)
print(sorted(n for n, _ in old.named_parameters()), sorted(n for n, _ in old.named_buffers()))
old.train()
for _ in range(3):
    old(x[:, :4].repeat(1, 2)[:, :6])
print(f"{torch.linalg.matrix_norm(old.weight.detach(), ord=2).item():.3f}")
nn.utils.remove_spectral_norm(old)
print(sorted(n for n, _ in old.named_parameters()))
try:
    nn.utils.spectral_norm(old)
    nn.utils.spectral_norm(old)
except RuntimeError as e:
    print(type(e).__name__, e)
