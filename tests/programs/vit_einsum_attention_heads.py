# Hand-written multi-head self-attention as in ViT reference repos: fused qkv Linear, reshape/permute
# into heads, unbind, einsum scores softmax(q k^T / sqrt(d)) with boolean and additive masks, checked
# against F.scaled_dot_product_attention and nn.MultiheadAttention with the same weights.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, num_heads=2, qkv_bias=True):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        if mask is not None:
            attn = attn.masked_fill(~mask[:, None, None, :], float("-inf"))
        attn = attn.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(B, N, C)
        return self.proj(out), attn


torch.manual_seed(0)
B, N, D = 2, 5, 8
m = Attention(D)
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.21 + i).view_as(p) * 0.3)
x = torch.sin(torch.arange(B * N * D, dtype=torch.float32) * 0.13).view(B, N, D).requires_grad_()
keep = torch.tensor([[True, True, True, True, True], [True, True, True, False, False]])

out, attn = m(x, keep)
print(out.shape, attn.shape, out.grad_fn.name(), attn.grad_fn.name())
print(attn[1, 0].detach())
print(out[1].detach())

# same thing with SDPA (bool mask: True = take part)
qkv = m.qkv(x).reshape(B, N, 3, 2, D // 2).permute(2, 0, 3, 1, 4)
q, k, v = qkv.unbind(0)
sd = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
sd = m.proj(sd.transpose(1, 2).reshape(B, N, D))
print(torch.allclose(sd, out, atol=1e-6), sd.grad_fn.name())

# additive float mask and causal
add = torch.zeros(N, N).masked_fill(torch.triu(torch.ones(N, N, dtype=torch.bool), 1), float("-inf"))
s1 = F.scaled_dot_product_attention(q, k, v, attn_mask=add)
s2 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
manual = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D // 2) + add, dim=-1) @ v
print(torch.allclose(s1, s2, atol=1e-6), torch.allclose(s1, manual, atol=1e-6))
print(s2[0, 1, :3].detach())

# nn.MultiheadAttention with the same weights
mha = nn.MultiheadAttention(D, 2, batch_first=True)
with torch.no_grad():
    mha.in_proj_weight.copy_(m.qkv.weight)
    mha.in_proj_bias.copy_(m.qkv.bias)
    mha.out_proj.weight.copy_(m.proj.weight)
    mha.out_proj.bias.copy_(m.proj.bias)
o2, w2 = mha(x, x, x, key_padding_mask=~keep, average_attn_weights=False)
print(o2.shape, w2.shape, torch.allclose(o2, out, atol=1e-6), torch.allclose(w2, attn, atol=1e-6))
o3, w3 = mha(x, x, x, key_padding_mask=~keep)
print(w3.shape, w3[1, 0].detach())

out.sum().backward()
print(x.grad[1, :, :3])
print(m.qkv.weight.grad.shape, m.qkv.weight.grad[:2, :3])
print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in mha.parameters()))
try:
    mha(x, x, x, attn_mask=torch.zeros(3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(q, k[..., :3], v)
except Exception as e:
    print(type(e).__name__, e)
