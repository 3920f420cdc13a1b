# Weight reparametrizations and pruning in a compression notebook: parametrizations.orthogonal /
# weight_norm / spectral_norm, a custom register_parametrization, then prune.l1_unstructured,
# ln_structured, global_unstructured, sparsity reports, prune.remove and the resulting state_dict keys.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations, prune


def fill(m, k=0.0):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i + k).view_as(p))
    return m


lin = fill(nn.Linear(3, 3))
parametrizations.weight_norm(lin, name="weight", dim=0)
print([n for n, _ in lin.named_parameters()])
print(list(lin.state_dict().keys()))
print(P.is_parametrized(lin), P.is_parametrized(lin, "bias"), type(lin.parametrizations.weight[0]).__name__)
print(lin.parametrizations.weight.original0.detach().round(decimals=4).view(-1))
print(lin.weight.norm(dim=1).detach().round(decimals=4))
with torch.no_grad():
    lin.parametrizations.weight.original0.fill_(2.0)
print(lin.weight.norm(dim=1).detach().round(decimals=4))
x = torch.linspace(-1, 1, 6).view(2, 3)
loss = lin(x).pow(2).sum()
loss.backward()
print(lin.parametrizations.weight.original0.grad.view(-1).round(decimals=4))
print(lin.parametrizations.weight.original1.grad.round(decimals=4))
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print([n for n, _ in lin.named_parameters()], lin.weight.norm(dim=1).detach().round(decimals=4))

q = fill(nn.Linear(4, 4, bias=False))
parametrizations.orthogonal(q)
w = q.weight
print(torch.allclose(w @ w.T, torch.eye(4), atol=1e-5), list(q.state_dict().keys()))


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


s = fill(nn.Linear(3, 3))
P.register_parametrization(s, "weight", Symmetric())
print(s.weight.detach().round(decimals=3))
print(s)
with P.cached():
    print(s.weight is s.weight)
print(s.weight is s.weight)

sn = fill(nn.Linear(4, 3))
sn = parametrizations.spectral_norm(sn)
print([n for n, _ in sn.named_buffers()])

# pruning
net = nn.Sequential(fill(nn.Linear(4, 5)), nn.ReLU(), fill(nn.Linear(5, 2), 1.0))
prune.l1_unstructured(net[0], name="weight", amount=0.4)
print([n for n, _ in net[0].named_parameters()], [n for n, _ in net[0].named_buffers()])
print(net[0].weight_mask)
print(f"sparsity {100.0 * float((net[0].weight == 0).sum()) / net[0].weight.nelement():.1f}%")
print(prune.is_pruned(net[0]), prune.is_pruned(net[2]))
prune.ln_structured(net[2], name="weight", amount=1, n=2, dim=1)
print(net[2].weight_mask)
prune.global_unstructured([(net[0], "bias"), (net[2], "bias")], pruning_method=prune.L1Unstructured, amount=3)
print(net[0].bias_mask, net[2].bias_mask)
hooks = [type(h).__name__ for h in net[0]._forward_pre_hooks.values()]
print(hooks)
out = net(torch.ones(1, 4))
out.sum().backward()
print(net[0].weight_orig.grad)
prune.l1_unstructured(net[0], name="weight", amount=2)
print(net[0].weight_mask.sum().item(), type(list(net[0]._forward_pre_hooks.values())[0]).__name__)
prune.remove(net[0], "weight")
print([n for n, _ in net[0].named_parameters()], list(net.state_dict().keys()))
try:
    prune.remove(net[0], "weight")
except ValueError as e:
    print(type(e).__name__, e)
try:
    prune.l1_unstructured(net[2], name="weight", amount=1.5)
except ValueError as e:
    print(type(e).__name__, e)
