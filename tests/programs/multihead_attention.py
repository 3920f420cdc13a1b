# nn.MultiheadAttention and nn.TransformerEncoderLayer: shapes and masks (the common first contact).
import torch
import torch.nn as nn

mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
x = torch.sin(torch.arange(2 * 5 * 8, dtype=torch.float32)).view(2, 5, 8)
mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
out, weights = mha(x, x, x, attn_mask=mask)
print(out.shape, weights.shape, torch.allclose(weights.sum(-1), torch.ones(2, 5)))
print(weights[0, 0, 1:].abs().sum().item())
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2)
print(encoder(x).shape)
print(nn.functional.scaled_dot_product_attention(x, x, x, is_causal=True).shape)
