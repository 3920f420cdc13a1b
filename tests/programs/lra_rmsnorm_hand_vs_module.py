# LLaMA-style RMSNorm written by hand (float32 upcast, rsqrt, weight multiply) against nn.RMSNorm
# and F.rms_norm: repr, eps defaults, gradients, half precision input, state_dict.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)

    def extra_repr(self):
        return f"{tuple(self.weight.shape)}, eps={self.variance_epsilon}"


x = torch.sin(torch.arange(24, dtype=torch.float32) * 0.7).view(2, 3, 4) * 3
hand = LlamaRMSNorm(4)
mod = nn.RMSNorm(4, eps=1e-6)
mod_default = nn.RMSNorm([3, 4])
print(hand, mod, mod_default, nn.RMSNorm(4, elementwise_affine=False), sep="\n")
print(mod_default.eps, mod_default.normalized_shape, mod_default.weight.shape)
with torch.no_grad():
    w = torch.linspace(0.5, 1.5, 4)
    hand.weight.copy_(w)
    mod.weight.copy_(w)
a, b = hand(x), mod(x)
print(torch.allclose(a, b, atol=1e-6))
print(b[1].round(decimals=4))
c = F.rms_norm(x, (4,), w, 1e-6)
print(torch.allclose(b, c, atol=1e-6), F.rms_norm(x, (4,)).norm(dim=-1).round(decimals=3))
print(mod_default(x).grad_fn is not None, mod_default(x)[0, 0].round(decimals=4))

a.sum().backward()
b.sum().backward()
print(hand.weight.grad.round(decimals=4), mod.weight.grad.round(decimals=4))
xr = x.clone().requires_grad_(True)
(mod(xr) * torch.arange(4.0)).sum().backward()
print(xr.grad[0].round(decimals=4))

xh = x.to(torch.float16)
print(hand(xh).dtype, mod.to(torch.float16)(xh).dtype)
print(list(mod.state_dict().keys()), list(nn.RMSNorm(4, elementwise_affine=False).state_dict()))
try:
    nn.RMSNorm(4)(torch.ones(2, 3))
except RuntimeError as e:
    print(type(e).__name__, e)
