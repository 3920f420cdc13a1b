# F.scaled_dot_product_attention as used in hand-rolled attention modules: is_causal vs an
# explicit tril mask, bool vs additive float masks, L != S causal alignment, scale=, enable_gqa,
# fully-masked rows, gradients, and the errors for conflicting arguments.
import math
import torch
import torch.nn.functional as F

B, H, L, E = 2, 2, 4, 3
q = torch.sin(torch.arange(B * H * L * E, dtype=torch.float32) * 0.31).view(B, H, L, E)
k = torch.cos(torch.arange(B * H * L * E, dtype=torch.float32) * 0.17).view(B, H, L, E)
v = torch.linspace(-1, 1, B * H * L * E).view(B, H, L, E)

out_c = F.scaled_dot_product_attention(q, k, v, is_causal=True)
tril = torch.ones(L, L, dtype=torch.bool).tril()
out_b = F.scaled_dot_product_attention(q, k, v, attn_mask=tril)
fmask = torch.zeros(L, L).masked_fill(~tril, float("-inf"))
out_f = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask)
print(out_c[0, 1])
print(torch.allclose(out_c, out_b, atol=1e-6), torch.allclose(out_c, out_f, atol=1e-6))


def manual(q, k, v, mask=None, scale=None):
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.size(-1)))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return s.softmax(-1) @ v


print(torch.allclose(out_c, manual(q, k, v, tril), atol=1e-6))
print(F.scaled_dot_product_attention(q, k, v, scale=0.25)[1, 0, :2])
print(torch.allclose(F.scaled_dot_product_attention(q, k, v, scale=0.25), manual(q, k, v, scale=0.25), atol=1e-6))

# L != S: the causal mask is aligned top-left (query i sees keys 0..i)
q2 = q[:, :, :2]
print(F.scaled_dot_product_attention(q2, k, v, is_causal=True)[0, 0])
print(manual(q2, k, v, torch.ones(2, L, dtype=torch.bool).tril())[0, 0])

# per-batch padding mask broadcast (B, 1, 1, S)
keep = torch.tensor([[True, True, True, False], [True, True, False, False]])
out_p = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
print(out_p[1, 1])
# a fully masked row: nan from softmax over all -inf
row_mask = torch.ones(L, L, dtype=torch.bool)
row_mask[2] = False
print(F.scaled_dot_product_attention(q, k, v, attn_mask=row_mask)[0, 0])

# grouped-query attention: 4 query heads sharing 2 key/value heads
q4 = torch.sin(torch.arange(1 * 4 * L * E, dtype=torch.float32)).view(1, 4, L, E)
print(F.scaled_dot_product_attention(q4, k[:1], v[:1], enable_gqa=True, is_causal=True)[0, 3])
try:
    F.scaled_dot_product_attention(q4, k[:1], v[:1])
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])

qg = q.clone().requires_grad_()
kg = k.clone().requires_grad_()
out = F.scaled_dot_product_attention(qg, kg, v, is_causal=True)
out.pow(2).sum().backward()
print(out.grad_fn.name(), qg.grad[0, 0], kg.grad[0, 0, 0], sep="\n")

for name, kwargs in [("mask+causal", dict(attn_mask=tril, is_causal=True)),
                     ("bad mask shape", dict(attn_mask=torch.ones(3, 3, dtype=torch.bool))),
                     ("int mask", dict(attn_mask=torch.ones(L, L, dtype=torch.long)))]:
    try:
        F.scaled_dot_product_attention(q, k, v, **kwargs)
        print(name, "ok")
    except (RuntimeError, ValueError) as e:
        print(name, type(e).__name__, str(e).splitlines()[0][:120])
try:
    F.scaled_dot_product_attention(q, k[..., :2], v)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0][:120])
print(F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=True).dtype)

# pinning the backend with torch.nn.attention.sdpa_kernel (CPU has math and flash only)
from torch.nn.attention import SDPBackend, sdpa_kernel

for backends in (SDPBackend.MATH, [SDPBackend.FLASH_ATTENTION], SDPBackend.EFFICIENT_ATTENTION):
    with sdpa_kernel(backends):
        try:
            o = F.scaled_dot_product_attention(qg, kg, v, is_causal=True)
            print(backends, o.grad_fn.name(), torch.allclose(o, out, atol=1e-6))
        except RuntimeError as e:
            print(backends, type(e).__name__, e)
