# Layer normalisation by hand against nn.LayerNorm: forward values and gradients.
import torch
import torch.nn as nn

x = torch.sin(torch.arange(24, dtype=torch.float32) * 0.9).view(2, 3, 4).requires_grad_()
ln = nn.LayerNorm(4)
print(ln, ln.weight, ln.bias)
with torch.no_grad():
    ln.weight.copy_(torch.tensor([1.0, 0.5, 2.0, -1.0]))
    ln.bias.copy_(torch.tensor([0.0, 0.1, 0.2, 0.3]))

eps = 1e-5
mean = x.mean(dim=-1, keepdim=True)
var = x.var(dim=-1, keepdim=True, unbiased=False)
manual = (x - mean) / torch.sqrt(var + eps) * ln.weight + ln.bias
builtin = ln(x)
print(builtin[0])
print(torch.allclose(manual, builtin, atol=1e-5), builtin.grad_fn.name())

(g_manual,) = torch.autograd.grad(manual.pow(2).sum(), x)
(g_builtin,) = torch.autograd.grad(builtin.pow(2).sum(), x)
print(torch.allclose(g_manual, g_builtin, atol=1e-4))
print(g_builtin[1])

f = nn.functional.layer_norm(x, (3, 4))
print(f.mean(dim=(-2, -1)).abs().max().item() < 1e-6, f.std(dim=(-2, -1), unbiased=False))
print(x.var(dim=-1), x.std(), torch.var_mean(x, dim=0)[1].shape)
