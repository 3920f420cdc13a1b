# Checking nn.MultiheadAttention against attention written by hand (in_proj_weight.chunk(3),
# split heads, softmax(QK^T/sqrt(d))V, out_proj), porting separate q/k/v Linear weights into it
# through load_state_dict, and calling F.multi_head_attention_forward directly.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

E, H, L, N = 6, 3, 4, 2
mha = nn.MultiheadAttention(E, H, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + 0.3 * i).view(p.shape) * 0.5)
print({k: tuple(v.shape) for k, v in mha.state_dict().items()})

x = torch.cos(torch.arange(N * L * E, dtype=torch.float32) * 0.13).view(N, L, E)
mask = nn.Transformer.generate_square_subsequent_mask(L)
out, w = mha(x, x, x, attn_mask=mask, average_attn_weights=False)


def by_hand(x, m, mask):
    Wq, Wk, Wv = m.in_proj_weight.chunk(3)
    bq, bk, bv = m.in_proj_bias.chunk(3)
    q, k, v = F.linear(x, Wq, bq), F.linear(x, Wk, bk), F.linear(x, Wv, bv)
    split = lambda t: t.view(N, L, H, E // H).transpose(1, 2)     # (N, H, L, d)
    q, k, v = split(q), split(k), split(v)
    scores = q @ k.transpose(-2, -1) / math.sqrt(E // H) + mask
    attn = scores.softmax(-1)
    ctx = (attn @ v).transpose(1, 2).reshape(N, L, E)
    return m.out_proj(ctx), attn


out2, w2 = by_hand(x, mha, mask)
print(torch.allclose(out, out2, atol=1e-6), torch.allclose(w, w2, atol=1e-6))
print(out[1], w[1, 2], sep="\n")
(out.square().mean() - out2.square().mean()).abs().backward()
print(mha.in_proj_weight.grad.abs().max() < 1e-6)

# porting a checkpoint stored as separate projections (e.g. from another library)
q_proj, k_proj, v_proj, o_proj = (nn.Linear(E, E) for _ in range(4))
with torch.no_grad():
    for j, lin in enumerate((q_proj, k_proj, v_proj, o_proj)):
        lin.weight.copy_(torch.linspace(-1, 1, E * E).view(E, E).roll(j) * 0.3)
        lin.bias.copy_(torch.linspace(0, 0.5, E) * (j - 1))
sd = {
    "in_proj_weight": torch.cat([q_proj.weight, k_proj.weight, v_proj.weight]),
    "in_proj_bias": torch.cat([q_proj.bias, k_proj.bias, v_proj.bias]),
    "out_proj.weight": o_proj.weight,
    "out_proj.bias": o_proj.bias,
}
ported = nn.MultiheadAttention(E, H, batch_first=True)
print(ported.load_state_dict({k: v.detach() for k, v in sd.items()}))
with torch.no_grad():
    y, _ = ported(x, x, x, need_weights=False)
    q = q_proj(x).view(N, L, H, -1).transpose(1, 2)
    k = k_proj(x).view(N, L, H, -1).transpose(1, 2)
    v = v_proj(x).view(N, L, H, -1).transpose(1, 2)
    ref = o_proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(N, L, E))
print(torch.allclose(y, ref, atol=1e-6), y[0, 1])
try:
    ported.load_state_dict({"in_proj_weight": sd["in_proj_weight"][:E]}, strict=False)
except RuntimeError as e:
    print(type(e).__name__, e)
print(ported.load_state_dict({"in_proj_bias": sd["in_proj_bias"].detach()}, strict=False))

# the functional form takes sequence-first inputs
xs = x.transpose(0, 1)
fo, fw = F.multi_head_attention_forward(xs, xs, xs, E, H, mha.in_proj_weight, mha.in_proj_bias,
                                        None, None, False, 0.0, mha.out_proj.weight,
                                        mha.out_proj.bias, training=False, attn_mask=mask)
print(fo.shape, fw.shape, torch.allclose(fo.transpose(0, 1), out, atol=1e-6), fo.grad_fn.name())
