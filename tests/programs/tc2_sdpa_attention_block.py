# A transformer block compiled with torch.compile that uses F.scaled_dot_product_attention with
# is_causal=True, a boolean key-padding mask, and an additive float mask; outputs and gradients
# are checked against the eager block and a hand-written softmax(QK^T/sqrt(d))V.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d=8, heads=2):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, attn_mask=None, causal=False):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=causal)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


block = Block()
with torch.no_grad():
    for i, p in enumerate(block.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p) * 0.3)
cblock = torch.compile(block)

x = torch.sin(torch.arange(2 * 5 * 8, dtype=torch.float32).view(2, 5, 8) * 0.17)

out = cblock(x, causal=True)
print("causal", out.shape, torch.allclose(out, block(x, causal=True), atol=1e-5))
print(torch.round(out[0, :2], decimals=4))

lengths = torch.tensor([5, 3])
pad = torch.arange(5)[None, :] < lengths[:, None]          # (B, T) True = keep
bool_mask = pad[:, None, None, :]                             # broadcast over heads and queries
out_b = cblock(x, attn_mask=bool_mask)
print("bool mask", torch.allclose(out_b, block(x, attn_mask=bool_mask), atol=1e-5))
print(torch.round(out_b[1, 0], decimals=4))

float_mask = torch.zeros(5, 5).masked_fill(torch.ones(5, 5, dtype=torch.bool).triu(1), float("-inf"))
out_f = cblock(x, attn_mask=float_mask)
print("float mask == causal", torch.allclose(out_f, out, atol=1e-5))


@torch.compile(fullgraph=True)
def manual_attention(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


q = torch.linspace(-1, 1, 2 * 4 * 6).view(2, 4, 6).requires_grad_()
k = torch.cos(torch.arange(48, dtype=torch.float32).view(2, 4, 6) * 0.3).requires_grad_()
v = torch.sin(torch.arange(48, dtype=torch.float32).view(2, 4, 6) * 0.2)
causal = torch.ones(4, 4, dtype=torch.bool).tril()
m = manual_attention(q, k, v, causal)
s = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("manual == sdpa", torch.allclose(m, s, atol=1e-6))
(m * v).sum().backward()
print("q.grad", torch.round(q.grad[0, 1], decimals=4))
print("k.grad", torch.round(k.grad[1, :, 0], decimals=4))

xg = x.clone().requires_grad_()
cblock(xg, causal=True).pow(2).mean().backward()
print("x.grad", torch.round(xg.grad[0, -1], decimals=4))
print("qkv grad", f"{block.qkv.weight.grad.abs().sum().item():.4f}")
