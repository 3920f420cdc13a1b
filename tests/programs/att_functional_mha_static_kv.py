# Calling F.multi_head_attention_forward directly (as fairseq-style code does): packed vs separate
# projection weights, static_k/static_v (precomputed per-head keys/values), unbatched 2-D input,
# float64 MultiheadAttention, and gradients through the attention weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

E, H, L, N, S = 6, 2, 3, 2, 4
hd = E // H
W = torch.sin(torch.arange(3 * E * E, dtype=torch.float32) * 0.31).reshape(3 * E, E) * 0.4
b = torch.cos(torch.arange(3 * E, dtype=torch.float32)) * 0.1
Wo = torch.cos(torch.arange(E * E, dtype=torch.float32) * 0.7).reshape(E, E) * 0.4
bo = torch.zeros(E)
q = torch.sin(torch.arange(L * N * E, dtype=torch.float32) * 0.5).reshape(L, N, E)
kv = torch.cos(torch.arange(S * N * E, dtype=torch.float32) * 0.4).reshape(S, N, E)

out, w = F.multi_head_attention_forward(q, kv, kv, E, H, W, b, None, None, False, 0.0, Wo, bo,
                                        training=False)
print(out.shape, w.shape)
print(out[0])

wq, wk, wv = W.chunk(3)
out2, w2 = F.multi_head_attention_forward(q, kv, kv, E, H, None, b, None, None, False, 0.0, Wo, bo,
                                          training=False, use_separate_proj_weight=True,
                                          q_proj_weight=wq, k_proj_weight=wk, v_proj_weight=wv)
print("separate == packed:", torch.allclose(out, out2, atol=1e-6))

# static keys/values: (N * H, S, head_dim), bypassing the k/v projections
sk = torch.sin(torch.arange(N * H * S * hd, dtype=torch.float32)).reshape(N * H, S, hd)
sv = torch.cos(torch.arange(N * H * S * hd, dtype=torch.float32)).reshape(N * H, S, hd)
out3, w3 = F.multi_head_attention_forward(q, kv, kv, E, H, W, b, None, None, False, 0.0, Wo, bo,
                                          training=False, static_k=sk, static_v=sv,
                                          average_attn_weights=False)
print(out3.shape, w3.shape)
print(w3[1, 0])
try:
    F.multi_head_attention_forward(q, kv, kv, E, H, W, b, None, None, False, 0.0, Wo, bo,
                                   training=False, static_k=sk[:, :, :2])
except Exception as e:
    print(type(e).__name__, e)

# module in float64 with unbatched (L, E) input
mha = nn.MultiheadAttention(E, H, dtype=torch.float64)
with torch.no_grad():
    mha.in_proj_weight.copy_(W.double())
    mha.in_proj_bias.copy_(b.double())
    mha.out_proj.weight.copy_(Wo.double())
    mha.out_proj.bias.zero_()
print(mha.in_proj_weight.dtype)
qu = q[:, 0].double().requires_grad_(True)
o, a = mha(qu, kv[:, 0].double(), kv[:, 0].double())
print(o.shape, a.shape, o.dtype)
print("matches batched:", torch.allclose(o.float(), out[:, 0], atol=1e-5))
# entropy of attention as a regulariser
ent = -(a * a.clamp_min(1e-9).log()).sum(-1).mean()
ent.backward()
print(f"{ent.item():.6f}", qu.grad)
print(torch.autograd.gradcheck(lambda t: mha(t, t, t)[0], (qu.detach().clone().requires_grad_(),)))
