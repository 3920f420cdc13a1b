# Inspecting nn.MultiheadAttention with add_bias_kv / add_zero_attn (extra key slots in the
# attention map), separate q/k/v_proj_weight (kdim/vdim), and the common trick of patching
# self_attn.forward to force need_weights=True so a forward hook can grab per-head maps from
# an nn.TransformerEncoderLayer.
import functools

import torch
import torch.nn as nn


def fill(module, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            n = torch.arange(p.numel(), dtype=torch.float32)
            p.copy_((scale * torch.sin(0.5 * n + 0.3 * i)).reshape(p.shape))


E, H = 6, 3
mha = nn.MultiheadAttention(E, H, add_bias_kv=True, add_zero_attn=True)
print([n for n, _ in mha.named_parameters()])
print(mha.bias_k.shape, mha.bias_v.shape, mha.add_zero_attn)
fill(mha)
L, N, S = 3, 2, 4
q = torch.sin(torch.arange(L * N * E, dtype=torch.float32)).reshape(L, N, E)
kv = torch.cos(torch.arange(S * N * E, dtype=torch.float32)).reshape(S, N, E)
out, w = mha(q, kv, kv)
print(out.shape, w.shape)            # S + 1 (bias) + 1 (zero) key slots
print(w[0])
out, w = mha(q, kv, kv, key_padding_mask=torch.tensor([[False] * 3 + [True]] * 2),
             attn_mask=torch.zeros(L, S, dtype=torch.bool), average_attn_weights=False)
print(w.shape, w[1, 2])

cross = nn.MultiheadAttention(E, H, kdim=4, vdim=5, bias=False, batch_first=True)
print(sorted(cross.state_dict().keys()), cross.in_proj_bias)
fill(cross, 0.2)
qb = torch.linspace(-1, 1, N * L * E).reshape(N, L, E)
kb = torch.linspace(1, -1, N * S * 4).reshape(N, S, 4)
vb = torch.linspace(-0.5, 0.5, N * S * 5).reshape(N, S, 5)
o, w = cross(qb, kb, vb)
print(o)
o.sum().backward()
print(cross.k_proj_weight.grad.shape, f"{cross.v_proj_weight.grad.abs().sum().item():.4f}")

# hook trick
layer = nn.TransformerEncoderLayer(E, H, dim_feedforward=12, dropout=0.0)
fill(layer)
layer.eval()
maps = []


def patch(attn):
    orig = attn.forward

    @functools.wraps(orig)
    def wrapped(*args, **kwargs):
        kwargs["need_weights"] = True
        kwargs["average_attn_weights"] = False
        return orig(*args, **kwargs)
    attn.forward = wrapped


patch(layer.self_attn)
h = layer.self_attn.register_forward_hook(lambda m, i, o: maps.append(o[1].detach()))
src = torch.sin(torch.arange(5 * 2 * E, dtype=torch.float32) * 0.4).reshape(5, 2, E)
y = layer(src)
h.remove()
print(len(maps), maps[0].shape)
print(maps[0][0, 0])
print(y[0])
layer(src)
print("after remove:", len(maps))
