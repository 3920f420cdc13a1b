# Grouped-query attention through F.scaled_dot_product_attention(enable_gqa=True) versus an explicit
# repeat_interleave of the KV heads, with is_causal, a boolean mask and an additive float mask.
import torch
import torch.nn.functional as F

B, Hq, Hkv, T, D = 2, 4, 2, 5, 3
q = torch.sin(torch.arange(B * Hq * T * D, dtype=torch.float32) * 0.31).view(B, Hq, T, D)
k = torch.cos(torch.arange(B * Hkv * T * D, dtype=torch.float32) * 0.17).view(B, Hkv, T, D)
v = torch.sin(torch.arange(B * Hkv * T * D, dtype=torch.float32) * 0.23 + 1).view(B, Hkv, T, D)
q.requires_grad_(True); k.requires_grad_(True); v.requires_grad_(True)

out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
print(out.shape, out.grad_fn is not None)
k_rep = k.repeat_interleave(Hq // Hkv, dim=1)
v_rep = v.repeat_interleave(Hq // Hkv, dim=1)
ref = F.scaled_dot_product_attention(q, k_rep, v_rep, is_causal=True)
print(torch.allclose(out, ref, atol=1e-6))
print(out[0, :, -1].round(decimals=4))

out.pow(2).sum().backward()
print(k.grad.shape, v.grad.shape)
print(k.grad[1, 0].round(decimals=4))
print(v.grad[0, 1].round(decimals=4))

# boolean mask (True = attend) with left padding on the first sequence
pad = torch.tensor([[False, False, True, True, True], [True, True, True, True, True]])
causal = torch.ones(T, T, dtype=torch.bool).tril()
mask = causal[None, None] & pad[:, None, None, :]
with torch.no_grad():
    o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
print(o2[0, 0, 2:].round(decimals=4))
print(torch.isnan(o2[0, 0, :2]).all().item())

# additive float mask
fmask = torch.zeros(T, T).masked_fill(~causal, float("-inf"))
with torch.no_grad():
    o3 = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, enable_gqa=True, scale=0.5)
    o4 = F.scaled_dot_product_attention(q, k_rep, v_rep, attn_mask=fmask, scale=0.5)
print(torch.allclose(o3, o4, atol=1e-6), o3[1, 3, -1].round(decimals=4))

# errors users hit
for kw in [dict(), dict(enable_gqa=False)]:
    try:
        F.scaled_dot_product_attention(q, k, v, **kw)
    except RuntimeError as e:
        print(type(e).__name__, str(e)[:80])
try:
    F.scaled_dot_product_attention(q, k[:, :1].expand(B, 3, T, D), v[:, :1].expand(B, 3, T, D), enable_gqa=True)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:80])
