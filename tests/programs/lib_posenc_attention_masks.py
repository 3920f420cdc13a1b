# Sinusoidal positional encoding (arange/exp/sin/cos) and attention masks: triu causal masks,
# masked_fill with -inf, bool vs float masks, fully masked rows and key-padding masks.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=16):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[:x.size(0)]


pe = PositionalEncoding(6)
print(pe.pe.shape, pe.pe.dtype)
print(pe.pe[:4, 0])
print(pe(torch.zeros(3, 2, 6))[:, 1].sum(dim=1))
div = torch.exp(torch.arange(0, 6, 2) * (-math.log(10000.0) / 6))
print(div, div.dtype, torch.arange(0, 6, 2).dtype)

sz = 4
causal = torch.triu(torch.ones(sz, sz), diagonal=1).bool()
print(causal)
float_mask = torch.triu(torch.full((sz, sz), float("-inf")), diagonal=1)
print(float_mask)
print(nn.Transformer.generate_square_subsequent_mask(sz))
print(torch.equal(nn.Transformer.generate_square_subsequent_mask(sz), float_mask))

scores = torch.arange(16.).view(sz, sz) / 4
masked = scores.masked_fill(causal, float("-inf"))
print(masked)
attn = F.softmax(masked, dim=-1)
print(attn)
tril = torch.tril(torch.ones(sz, sz))
print(scores.masked_fill(tril == 0, -1e9).softmax(-1)[1])

pad = torch.tensor([[False, False, True, True], [False, False, False, True]])
s2 = torch.zeros(2, sz, sz)
m2 = s2.masked_fill(pad[:, None, :], float("-inf"))
print(m2.softmax(-1)[0])
all_masked = torch.full((2, 3), float("-inf"))
print(F.softmax(all_masked, dim=-1), torch.softmax(all_masked, -1).nan_to_num(0.0))

q = torch.linspace(-1, 1, 24).view(1, 4, 6)
k = torch.linspace(1, -1, 24).view(1, 4, 6)
v = torch.arange(24.).view(1, 4, 6)
out1 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
out2 = F.scaled_dot_product_attention(q, k, v, attn_mask=~causal)
out3 = F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask)
print(out1[0, :2])
print(torch.allclose(out1, out2, atol=1e-6), torch.allclose(out1, out3, atol=1e-6))
w = (q @ k.transpose(-2, -1)) / math.sqrt(q.size(-1))
manual = w.masked_fill(causal, float("-inf")).softmax(-1) @ v
print(torch.allclose(manual, out1, atol=1e-5))
# a padded query row whose keys are all masked out
row_mask = torch.tensor([[True, False, False, False], [True, True, False, False],
                         [False, False, False, False], [True, True, True, True]])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=row_mask)[0])
additive = torch.zeros(sz, sz).masked_fill(~row_mask, float("-inf"))
print(F.scaled_dot_product_attention(q, k, v, attn_mask=additive)[0, 2])
try:
    scores.masked_fill(causal.float(), 0.0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    scores.masked_fill(torch.ones(3, 3, dtype=torch.bool), 0.0)
except RuntimeError as e:
    print(type(e).__name__, e)
ms = scores.clone().requires_grad_()
y = ms.masked_fill(causal, float("-inf")).softmax(-1)
y[:, 0].sum().backward()
print(ms.grad, y.grad_fn.name())
