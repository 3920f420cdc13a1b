# Causal masks as LLM code builds them (triu(diagonal=1) + masked_fill(finfo.min), HF's 4D additive
# mask from an attention_mask of 1s and 0s) and F.scaled_dot_product_attention with is_causal,
# bool / float attn_mask, scale=, and the errors users hit.
import math

import torch
import torch.nn.functional as F

B, H, T, D = 2, 2, 4, 3
q = torch.linspace(-1, 1, B * H * T * D).view(B, H, T, D)
k = torch.linspace(0.5, -0.5, B * H * T * D).view(B, H, T, D).flip(-1)
v = torch.arange(B * H * T * D, dtype=torch.float32).view(B, H, T, D) / 10

dtype = torch.float32
min_val = torch.finfo(dtype).min
print(min_val, torch.finfo(dtype).eps, torch.finfo(torch.float64).min)
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
print(causal)
print(torch.full((T, T), min_val).triu(1))
print(torch.tril(torch.ones(T, T)).view(1, 1, T, T).shape)

# manual attention with the additive causal mask
scores = q @ k.transpose(-2, -1) / math.sqrt(D)
manual = scores.masked_fill(causal, float("-inf")).softmax(dim=-1) @ v
sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(sdpa[1, 0], torch.allclose(manual, sdpa, atol=1e-6))
print(F.scaled_dot_product_attention(q, k, v, attn_mask=~causal).sub(sdpa).abs().max())
float_mask = torch.zeros(T, T).masked_fill(causal, min_val)
print(float_mask)
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask), sdpa, atol=1e-6))
print(F.scaled_dot_product_attention(q, k, v, scale=1.0)[0, 0, 0])

# HF-style: padding (left padding of batch item 0) combined with causal mask, 4D additive mask
attention_mask = torch.tensor([[0, 0, 1, 1], [1, 1, 1, 1]])
expanded = attention_mask[:, None, None, :].to(dtype)
inverted = (1.0 - expanded).masked_fill((1.0 - expanded).bool(), min_val)
causal_4d = float_mask[None, None, :, :].expand(B, 1, T, T)
combined = causal_4d + inverted
print(combined.shape, combined[0, 0])
print(combined.clamp(min=min_val)[0, 0, 0], torch.isinf(combined).any())
out = F.scaled_dot_product_attention(q, k, v, attn_mask=combined.clamp(min=min_val))
print(out[0, 0])
# a fully masked first row gives uniform weights with finfo.min but NaN with -inf
row_inf = torch.tensor([[float("-inf"), float("-inf")], [0.0, float("-inf")]])
print(torch.softmax(row_inf, dim=-1), torch.softmax(torch.tensor([[min_val, min_val]]), dim=-1))
bool_mask = attention_mask[:, None, None, :].bool() & ~causal
print(bool_mask.shape, bool_mask.dtype)
print(F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)[0, 1])

# gradients through sdpa match the manual path
qg = q.clone().requires_grad_(True)
kg = k.clone().requires_grad_(True)
vg = v.clone().requires_grad_(True)
o = F.scaled_dot_product_attention(qg, kg, vg, is_causal=True)
print(o.grad_fn is not None, o.requires_grad, o.shape, o.dtype)
o.pow(2).sum().backward()
q2, k2, v2 = (t.clone().requires_grad_(True) for t in (q, k, v))
m = (q2 @ k2.transpose(-2, -1) / math.sqrt(D)).masked_fill(causal, float("-inf")).softmax(-1) @ v2
m.pow(2).sum().backward()
print(torch.allclose(qg.grad, q2.grad, atol=1e-5), torch.allclose(kg.grad, k2.grad, atol=1e-5), torch.allclose(vg.grad, v2.grad, atol=1e-5))
print(vg.grad[0, 0])

# is_causal with fewer queries than keys (decoding step): top-left aligned mask
q_last = q[:, :, -1:, :]
print(F.scaled_dot_product_attention(q_last, k, v, is_causal=True)[0, 0])
print(F.scaled_dot_product_attention(q_last, k, v)[0, 0])

try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask, is_causal=True)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(q, k[..., :2], v)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, T, dtype=torch.long))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask.double())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(torch.ones(1, 4, 2, 3), torch.ones(1, 3, 2, 3), torch.ones(1, 3, 2, 3), enable_gqa=True)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(q, k, v.double())
except RuntimeError as e:
    print(type(e).__name__, e)
