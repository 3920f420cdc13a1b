# ALiBi-style relative position bias passed as a float attn_mask to F.scaled_dot_product_attention,
# with the bias itself learnable (gradient flows into attn_mask), custom scale=, GQA via enable_gqa,
# and a top-left causal mask when L != S.
import math

import torch
import torch.nn.functional as F


def alibi_slopes(n_heads):
    start = 2 ** (-8 / n_heads)
    return torch.tensor([start ** (i + 1) for i in range(n_heads)])


B, H, L, D = 2, 4, 5, 8
q = torch.sin(torch.arange(B * H * L * D, dtype=torch.float32) * 0.37).reshape(B, H, L, D)
k = torch.cos(torch.arange(B * H * L * D, dtype=torch.float32) * 0.21).reshape(B, H, L, D)
v = torch.sin(torch.arange(B * H * L * D, dtype=torch.float32) * 0.11 + 1).reshape(B, H, L, D)

pos = torch.arange(L)
rel = (pos[None, :] - pos[:, None]).float()          # (L, L)
slopes = alibi_slopes(H)
bias = (slopes[:, None, None] * rel[None]).clone().requires_grad_(True)  # (H, L, L)
print("bias", bias.shape, bias[1, :2])

out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
print("out", out.shape, out[0, 0, :2, :4])
out.pow(2).sum().backward()
print("bias.grad", bias.grad.shape, bias.grad[0, 0])
print("grad row sums ~ 0:", bias.grad.sum(-1).abs().max().item() < 1e-5)

# custom scale vs manual
for scale in (None, 0.5, 1.0 / D):
    o = F.scaled_dot_product_attention(q, k, v, scale=scale)
    s = 1 / math.sqrt(D) if scale is None else scale
    ref = torch.softmax(q @ k.transpose(-2, -1) * s, dim=-1) @ v
    print("scale", scale, torch.allclose(o, ref, atol=1e-6), f"{o.abs().sum().item():.4f}")

# is_causal with more keys than queries: PyTorch uses a top-left aligned mask
q2 = q[:, :, :3]
oc = F.scaled_dot_product_attention(q2, k, v, is_causal=True)
tl = torch.ones(3, L, dtype=torch.bool).tril(diagonal=0)
ref = F.scaled_dot_product_attention(q2, k, v, attn_mask=tl)
print("causal L!=S", oc.shape, torch.allclose(oc, ref, atol=1e-6))
print(oc[1, 2, :, :3])

# grouped-query attention
kv_heads = 2
kg = k[:, :kv_heads]
vg = v[:, :kv_heads]
og = F.scaled_dot_product_attention(q, kg, vg, enable_gqa=True)
ref = F.scaled_dot_product_attention(q, kg.repeat_interleave(2, 1), vg.repeat_interleave(2, 1))
print("gqa", og.shape, torch.allclose(og, ref, atol=1e-6))
try:
    F.scaled_dot_product_attention(q, kg, vg)
except RuntimeError as e:
    print("RuntimeError", str(e).split("\n")[0][:90])

# attn_mask with is_causal is an error
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=bias, is_causal=True)
except RuntimeError as e:
    print("RuntimeError", str(e).split("\n")[0][:90])

# a learnable bias trained for a few steps
opt = torch.optim.SGD([bias], lr=0.5)
target = torch.zeros(B, H, L, D)
for step in range(6):
    opt.zero_grad()
    loss = F.mse_loss(F.scaled_dot_product_attention(q, k, v, attn_mask=bias), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
