# Surgery on nn.MultiheadAttention: forward hooks on out_proj never fire (MHA reads its weights
# directly), wrapping out_proj in a custom module breaks it, and the working alternative is a
# parametrization on in_proj_weight / out_proj.weight (e.g. head masking) - plus state_dict keys.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.set_printoptions(precision=4)
mha = nn.MultiheadAttention(4, 2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p) * 0.5)
x = torch.cos(torch.arange(2 * 3 * 4, dtype=torch.float32) * 0.4).view(2, 3, 4)

calls = []
h = mha.out_proj.register_forward_hook(lambda m, i, o: calls.append("out_proj"))
ref, attn = mha(x, x, x)
print("out_proj hook calls:", calls, type(mha.out_proj).__name__)
h.remove()


class Wrapped(nn.Module):
    def __init__(self, lin):
        super().__init__()
        self.lin = lin

    def forward(self, t):
        return self.lin(t)


original_out = mha.out_proj
mha.out_proj = Wrapped(original_out)
try:
    mha(x, x, x)
except AttributeError as e:
    print("AttributeError", e)
mha.out_proj = original_out


class HeadMask(nn.Module):
    """Zero the input columns of out_proj that belong to the masked heads."""
    def __init__(self, keep, head_dim):
        super().__init__()
        self.register_buffer("cols", torch.repeat_interleave(torch.tensor(keep, dtype=torch.float32), head_dim))

    def forward(self, W):
        return W * self.cols


P.register_parametrization(mha.out_proj, "weight", HeadMask([1, 0], 2))
masked, _ = mha(x, x, x)
print(masked[0])
print(sorted(mha.state_dict().keys()))
print(mha.out_proj.parametrizations.weight[0].cols)


class ScaleQ(nn.Module):
    def forward(self, W):
        return torch.cat([W[:4] * 2.0, W[4:]], 0)


P.register_parametrization(mha, "in_proj_weight", ScaleQ())
sharp_out, sharp_attn = mha(x, x, x)
print(type(mha).__name__, mha.in_proj_weight.shape)
print(attn[0])
print(sharp_attn[0])
print("sharper:", bool(sharp_attn.amax(-1).mean() > attn.amax(-1).mean()))
sharp_out.sum().backward()
print(mha.parametrizations.in_proj_weight.original.grad[:4].abs().sum() > 0,
      mha.out_proj.parametrizations.weight.original.grad[:, 2:].abs().sum().item())
P.remove_parametrizations(mha, "in_proj_weight", leave_parametrized=False)
P.remove_parametrizations(mha.out_proj, "weight", leave_parametrized=False)
back, _ = mha(x, x, x)
print("restored:", torch.allclose(back, ref, atol=1e-6), type(mha).__name__)
