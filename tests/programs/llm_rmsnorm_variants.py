# RMSNorm the way LLaMA / Mistral / T5 code writes it by hand, checked against nn.RMSNorm and
# F.rms_norm: rsqrt of the mean square, float32 upcast with .type_as, eps defaults, gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LlamaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float()).type_as(x)
        return output * self.weight

    def extra_repr(self):
        return f"{tuple(self.weight.shape)}, eps={self.eps}"


class T5LayerNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


x = torch.linspace(-2, 3, 12).view(2, 2, 3)
norm = LlamaRMSNorm(3)
with torch.no_grad():
    norm.weight.copy_(torch.tensor([1.0, 0.5, 2.0]))
print(norm)
y = norm(x)
print(y)
print(y.dtype, y.shape, y.grad_fn.name())

ref = nn.RMSNorm(3, eps=1e-6)
print(ref, ref.eps, ref.normalized_shape, ref.elementwise_affine)
with torch.no_grad():
    ref.weight.copy_(norm.weight)
print(torch.allclose(ref(x), y, atol=1e-6))
print(F.rms_norm(x, (3,), norm.weight, eps=1e-6).sub(y).abs().max())

default = nn.RMSNorm([2, 3])
print(default, default.eps, default.weight.shape)
print(default(x).pow(2).mean(dim=(-2, -1)))
noaff = nn.RMSNorm(3, elementwise_affine=False)
print(noaff, noaff.weight, list(noaff.parameters()))

t5 = T5LayerNorm(3)
print(t5(x.double()).dtype, t5(x).dtype, torch.allclose(t5(x), noaff(x), atol=1e-5))

# gradient of the weight and of the input
xr = x.clone().requires_grad_(True)
out = norm(xr)
out.pow(2).sum().backward()
print(xr.grad)
print(norm.weight.grad)
ref.zero_grad()
xr2 = x.clone().requires_grad_(True)
ref(xr2).pow(2).sum().backward()
print(torch.allclose(xr2.grad, xr.grad, atol=1e-5), torch.allclose(ref.weight.grad, norm.weight.grad, atol=1e-5))

# rms of each row after normalization is ~1, layer norm additionally centers
z = torch.tensor([[1.0, 2.0, 3.0, 4.0], [10.0, 10.0, 10.0, 10.0]])
print(nn.RMSNorm(4)(z))
print(F.layer_norm(z, (4,)))
print(F.rms_norm(torch.zeros(2, 4), (4,)))
print(F.rms_norm(torch.zeros(2, 4), (4,), eps=1e-5).grad_fn)

try:
    F.rms_norm(x, (4,))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    nn.RMSNorm(3)(torch.ones(2, 4))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.rms_norm(x, (3,), weight=torch.ones(4))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.rms_norm(torch.ones(2, 3), (2, 4))
except RuntimeError as e:
    print(type(e).__name__, e)
