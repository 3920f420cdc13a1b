# Incremental decoding with a KV cache: a query chunk attends to all cached keys, using
# torch.nn.attention.bias.causal_lower_right / causal_upper_left with
# F.scaled_dot_product_attention, versus explicit masks; CausalBias._materialize().
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import CausalVariant, causal_lower_right, causal_upper_left

B, H, D = 1, 2, 4
past, new = 3, 2
S = past + new
k = torch.sin(torch.arange(B * H * S * D, dtype=torch.float32) * 0.5).reshape(B, H, S, D)
v = torch.cos(torch.arange(B * H * S * D, dtype=torch.float32) * 0.3).reshape(B, H, S, D)
q = torch.sin(torch.arange(B * H * new * D, dtype=torch.float32) * 0.9 + 2).reshape(B, H, new, D)

lr = causal_lower_right(new, S)
ul = causal_upper_left(new, S)
print(type(lr).__name__, lr.variant, ul.variant, lr.seq_len_q, lr.seq_len_kv)
print(CausalVariant.LOWER_RIGHT, CausalVariant.UPPER_LEFT)
print(lr._materialize())
print(ul._materialize())

out_lr = F.scaled_dot_product_attention(q, k, v, attn_mask=lr)
explicit = torch.ones(new, S, dtype=torch.bool).tril(diagonal=S - new)
ref = F.scaled_dot_product_attention(q, k, v, attn_mask=explicit)
print("lower right == explicit:", torch.allclose(out_lr, ref, atol=1e-6))
print(out_lr[0, 0])

out_ul = F.scaled_dot_product_attention(q, k, v, attn_mask=ul)
ref_ul = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("upper left == is_causal:", torch.allclose(out_ul, ref_ul, atol=1e-6))

# decoding token by token with a growing cache equals the full causal pass
qa = torch.sin(torch.arange(B * H * S * D, dtype=torch.float32) * 0.9 + 2).reshape(B, H, S, D)
full = F.scaled_dot_product_attention(qa, k, v, is_causal=True)
steps = []
for t in range(S):
    bias = causal_lower_right(1, t + 1)
    steps.append(F.scaled_dot_product_attention(qa[:, :, t:t + 1], k[:, :, :t + 1],
                                                v[:, :, :t + 1], attn_mask=bias))
inc = torch.cat(steps, dim=2)
print("incremental == full:", torch.allclose(inc, full, atol=1e-6))

# gradients flow through the bias path
qg = q.clone().requires_grad_(True)
F.scaled_dot_product_attention(qg, k, v, attn_mask=lr).sum().backward()
print(qg.grad[0, 1])
