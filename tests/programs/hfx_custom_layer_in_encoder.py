# Plugging a hand-written pre-LN block (F.scaled_dot_product_attention inside) into
# nn.TransformerEncoder / nn.TransformerDecoder to reuse their layer cloning: what the containers
# pass down (is_causal detected from a causal mask, padding masks made float), plus the warning.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F

calls = []


class RopeFreeBlock(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        # weights kept in an nn.MultiheadAttention (nn.TransformerEncoder looks at self_attn)
        self.self_attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        calls.append((is_causal, None if src_mask is None else src_mask.dtype,
                      None if src_key_padding_mask is None else src_key_padding_mask.dtype))
        B, T, C = src.shape
        q, k, v = F.linear(self.ln1(src), self.self_attn.in_proj_weight, self.self_attn.in_proj_bias).split(C, dim=2)
        q, k, v = (t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v))
        if is_causal:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            mask = src_mask
            if src_key_padding_mask is not None:
                kpm = src_key_padding_mask.view(B, 1, 1, T)
                mask = kpm if mask is None else mask + kpm
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = src + self.self_attn.out_proj(y.transpose(1, 2).reshape(B, T, C))
        return x + self.mlp(self.ln2(x))


class NoSelfAttn(nn.Module):
    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        return src * 2


try:
    print(nn.TransformerEncoder(NoSelfAttn(), 2, enable_nested_tensor=False)(torch.ones(1, 2, 3)))
except AttributeError as err:
    print(type(err).__name__, err)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    enc = nn.TransformerEncoder(RopeFreeBlock(8, 2), num_layers=2)
print([str(w.message) for w in caught], enc.use_nested_tensor)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view(p.shape) * 0.3)

x = torch.cos(torch.arange(2 * 4 * 8, dtype=torch.float32) * 0.4).view(2, 4, 8)
causal = nn.Transformer.generate_square_subsequent_mask(4)
a = enc(x, mask=causal)
b = enc(x, mask=causal, is_causal=True)
c = enc(x, mask=causal, is_causal=False)
d = enc(x, mask=torch.ones(4, 4, dtype=torch.bool).triu(1))
e = enc(x, src_key_padding_mask=torch.tensor([[False, False, False, True]] * 2))
f = enc(x)
for call in calls:
    print(call)
print(torch.allclose(a, b, atol=1e-6), torch.allclose(a, c, atol=1e-6), torch.allclose(a, d, atol=1e-6))
print(a[1, 3], e[0, 0], sep="\n")
print(a.grad_fn.name(), f.shape)
calls.clear()
try:
    enc(x, mask=torch.zeros(4, 4, dtype=torch.long))
except AssertionError as err:
    print(type(err).__name__, err)
window = causal.clone()
window[3, 0] = float("-inf")                     # a sliding-window mask is not "causal"
g = enc(x, mask=window)
print(calls, (g - a)[1, 3].abs().sum() > 0)
