# nn.MultiheadAttention beyond the basics, as used for cross-attention between different feature
# sizes: kdim/vdim (separate q/k/v projection weights), per-head weights with
# average_attn_weights=False, need_weights=False, a 3-D per-head boolean attn_mask, bool and
# float key_padding_mask, add_bias_kv / add_zero_attn, gradients, and the checks on the masks.
import warnings

import torch
import torch.nn as nn


def init(m, scale=0.1):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * scale * (1 + 0.1 * i))


cross = nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
print(cross)
print([(n, tuple(p.shape)) for n, p in cross.named_parameters()])
print(cross.in_proj_weight, cross._qkv_same_embed_dim, cross.head_dim, cross.batch_first)
init(cross)
q = torch.linspace(-1, 1, 24).reshape(3, 2, 4)
k = torch.linspace(-1, 1, 24).reshape(4, 2, 3)
v = torch.linspace(1, -1, 40).reshape(4, 2, 5)
out, w = cross(q, k, v)
print(out, w, sep="\n")
out, w = cross(q, k, v, average_attn_weights=False)
print(w.shape, w[0, 1])
out, w = cross(q, k, v, need_weights=False)
print(out.shape, w)

x = torch.linspace(-1, 1, 24).reshape(2, 3, 4)
mha = nn.MultiheadAttention(4, 2, batch_first=True)
init(mha)
mask3 = torch.zeros(4, 3, 3, dtype=torch.bool)  # (batch * heads, L, S)
mask3[:, 0, 2] = True
out, w = mha(x, x, x, attn_mask=mask3, average_attn_weights=False)
print(w[1])
kpm = torch.tensor([[False, False, True], [False, True, True]])
out, w = mha(x, x, x, key_padding_mask=kpm)
print(w)
out.sum().backward()
print(mha.in_proj_weight.grad[:2], mha.out_proj.bias.grad)
print(out.grad_fn.name(), type(mha.out_proj).__name__, list(mha.state_dict().keys()))

mha.eval()
float_mask = torch.zeros(3, 3)
float_mask[0, 1] = float("-inf")
with torch.no_grad():
    out, w = mha(x, x, x, attn_mask=float_mask, key_padding_mask=torch.tensor([[0., 0., float("-inf")]] * 2))
print(out, w, sep="\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    mha(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.bool), key_padding_mask=torch.zeros(2, 3))
print([str(c.message) for c in caught])

for name, fn in [
    ("embed_dim", lambda: nn.MultiheadAttention(5, 2)),
    ("2-D mask shape", lambda: mha(x, x, x, attn_mask=torch.zeros(2, 2))),
    ("3-D mask shape", lambda: mha(x, x, x, attn_mask=torch.zeros(2, 3, 3))),
    ("long padding mask", lambda: mha(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.long))),
]:
    try:
        fn()
    except Exception as e:
        print(name, type(e).__name__, e)

extra = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True, bias=False, batch_first=True)
print([(n, tuple(p.shape)) for n, p in extra.named_parameters()])
init(extra)
out, w = extra(x, x, x)
print(out.shape, w.shape)
print(w)
