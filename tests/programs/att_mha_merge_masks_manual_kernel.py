# Reusing nn.MultiheadAttention.merge_masks to build the single (B, H, L, L) mask for a hand-written
# attention kernel (as people do when exporting or swapping in a custom kernel), with bool and
# float masks, then checking the manual kernel against the module.
import torch
import torch.nn as nn
import torch.nn.functional as F

B, L, E, H = 2, 4, 8, 2
mha = nn.MultiheadAttention(E, H, batch_first=True)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.sin(torch.arange(3 * E * E, dtype=torch.float32) * 0.41).reshape(3 * E, E) * 0.5)
    mha.in_proj_bias.copy_(torch.linspace(-0.2, 0.2, 3 * E))
    mha.out_proj.weight.copy_(torch.cos(torch.arange(E * E, dtype=torch.float32) * 0.13).reshape(E, E) * 0.3)
    mha.out_proj.bias.zero_()
x = torch.sin(torch.arange(B * L * E, dtype=torch.float32) * 0.29).reshape(B, L, E)
causal = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
pad = torch.tensor([[False, False, False, True], [False, False, False, False]])

print(mha.merge_masks(None, None, x))
m, t = mha.merge_masks(None, pad, x)
print(t, m.shape, m is pad)
m, t = mha.merge_masks(causal, None, x)
print(t, m.shape, m.dtype, m.is_contiguous())
merged, t = mha.merge_masks(causal, pad, x)
print(t, merged.shape, merged.dtype)
print(merged[0, 1])

fcausal = torch.zeros(L, L).masked_fill(causal, float("-inf"))
fpad = torch.zeros(B, L).masked_fill(pad, float("-inf"))
fmerged, t = mha.merge_masks(fcausal, fpad, x)
print(t, fmerged.dtype, fmerged[0, 0])
per_head = torch.zeros(B * H, L, L)
per_head[1::2] = fcausal
m3, t = mha.merge_masks(per_head, None, x)
print(t, m3.shape, torch.equal(m3[:, 1], fcausal.expand(B, L, L)))


def manual(module, x, merged):
    q, k, v = F.linear(x, module.in_proj_weight, module.in_proj_bias).chunk(3, dim=-1)

    def heads(t):
        return t.view(B, L, H, E // H).transpose(1, 2)
    out = F.scaled_dot_product_attention(heads(q), heads(k), heads(v), attn_mask=~merged)
    return module.out_proj(out.transpose(1, 2).reshape(B, L, E))


ref, _ = mha(x, x, x, key_padding_mask=pad, attn_mask=causal)
mine = manual(mha, x, merged)
print("manual kernel matches:", torch.allclose(ref, mine, atol=1e-6))
print(mine[0])
