# HF "attention interface" dispatch: eager_attention_forward vs sdpa_attention_forward with
# repeat_kv for grouped-query heads, enable_gqa=True, is_causal with a shorter query (decode step),
# sdpa_kernel(SDPBackend.MATH), fully padded rows, and half-precision masks from finfo(float16).min.
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def repeat_kv(hidden_states, n_rep):
    batch, num_kv, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_kv, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_kv * n_rep, slen, head_dim)


def eager_attention_forward(q, k, v, attention_mask, scaling, n_rep):
    k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
    attn_weights = torch.matmul(q, k.transpose(2, 3)) * scaling
    if attention_mask is not None:
        attn_weights = attn_weights + attention_mask[:, :, :, : k.shape[-2]]
    attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(q.dtype)
    return torch.matmul(attn_weights, v).transpose(1, 2).contiguous(), attn_weights


def sdpa_attention_forward(q, k, v, attention_mask, scaling, n_rep, is_causal):
    out = F.scaled_dot_product_attention(q, repeat_kv(k, n_rep), repeat_kv(v, n_rep), attn_mask=attention_mask,
                                         dropout_p=0.0, scale=scaling, is_causal=is_causal)
    return out.transpose(1, 2).contiguous(), None


ATTENTION_FUNCTIONS = {"eager": eager_attention_forward, "sdpa": sdpa_attention_forward}

b, hq, hkv, t, d = 2, 4, 2, 5, 4
q = torch.sin(torch.arange(b * hq * t * d, dtype=torch.float32) * 0.37).view(b, hq, t, d)
k = torch.cos(torch.arange(b * hkv * t * d, dtype=torch.float32) * 0.23).view(b, hkv, t, d)
v = torch.sin(torch.arange(b * hkv * t * d, dtype=torch.float32) * 0.11 + 1).view(b, hkv, t, d)
scaling = d ** -0.5
causal = torch.triu(torch.full((t, t), torch.finfo(torch.float32).min), diagonal=1)[None, None]

eager_out, weights = ATTENTION_FUNCTIONS["eager"](q, k, v, causal, scaling, hq // hkv)
sdpa_out, _ = ATTENTION_FUNCTIONS["sdpa"](q, k, v, None, scaling, hq // hkv, True)
print("eager vs sdpa causal:", torch.allclose(eager_out, sdpa_out, atol=1e-6), tuple(sdpa_out.shape))
gqa = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
print("enable_gqa matches repeat_kv:", torch.allclose(gqa.transpose(1, 2), sdpa_out, atol=1e-6))
print(torch.round(weights[0, 0], decimals=4))
with sdpa_kernel(SDPBackend.MATH):
    m = F.scaled_dot_product_attention(q, repeat_kv(k, 2), repeat_kv(v, 2), is_causal=True)
print("math backend same:", torch.allclose(m, gqa, atol=1e-6))

# decode step: query of length 1 against 5 cached keys; is_causal uses top-left alignment
q1 = q[:, :, -1:, :]
step_causal = F.scaled_dot_product_attention(q1, k, v, is_causal=True, enable_gqa=True)
step_full = F.scaled_dot_product_attention(q1, k, v, enable_gqa=True)
print("is_causal q_len=1 attends only key 0:", torch.allclose(step_causal, v.repeat_interleave(2, dim=1)[:, :, :1]))
print(torch.round(step_full[0, :, 0], decimals=4))

# padding: second sequence fully padded on the left two positions
pad = torch.tensor([[1, 1, 1, 1, 1], [0, 0, 1, 1, 1]], dtype=torch.bool)
bool_mask = pad[:, None, None, :] & torch.tril(torch.ones(t, t, dtype=torch.bool))
out_pad = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask, enable_gqa=True)
print("fully masked rows:", out_pad[1, 0, :2])
float_mask = torch.zeros(b, 1, t, t).masked_fill(~bool_mask, torch.finfo(torch.float32).min)
out_fmin, w_fmin = eager_attention_forward(q, k, v, float_mask, scaling, 2)
print("finfo.min rows uniform:", torch.round(w_fmin[1, 0, :2], decimals=3))
print(torch.round(out_pad[1, 0, 2:], decimals=4))

# half precision
qh, kh, vh = q.half(), k.half(), v.half()
mask_h = torch.triu(torch.full((t, t), torch.finfo(torch.float16).min, dtype=torch.float16), diagonal=1)[None, None]
print(torch.finfo(torch.float16).min, mask_h.dtype, mask_h[0, 0, 0])
out_h, w_h = eager_attention_forward(qh, kh, vh, mask_h, scaling, 2)
print(out_h.dtype, w_h.dtype, "close to fp32:", torch.allclose(out_h.float(), eager_out, atol=2e-3))
sd_h = F.scaled_dot_product_attention(qh, kh, vh, attn_mask=mask_h, enable_gqa=True)
print(sd_h.dtype, torch.allclose(sd_h.float().transpose(1, 2), eager_out, atol=2e-3))
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=causal, is_causal=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.scaled_dot_product_attention(q, k, v)
except RuntimeError as e:
    print("RuntimeError:", e)
