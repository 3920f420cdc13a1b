# ViT encoder built from nn.TransformerEncoderLayer(norm_first=True, activation="gelu",
# batch_first=True) like in many ViT tutorials; prints the module tree, attention with a
# src_key_padding_mask over padded tokens, parameter counts, and a few training steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

D, H, L = 8, 2, 2
layer = nn.TransformerEncoderLayer(d_model=D, nhead=H, dim_feedforward=16, dropout=0.0,
                                   activation="gelu", batch_first=True, norm_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=L, norm=nn.LayerNorm(D), enable_nested_tensor=False)
print(encoder.layers[0])
with torch.no_grad():
    for i, (n, p) in enumerate(encoder.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).view_as(p) * 0.25)
print(sum(p.numel() for p in encoder.parameters()))
print([n for n, _ in encoder.named_parameters()][:6])

patch_embed = nn.Linear(12, D)
cls_token = nn.Parameter(torch.zeros(1, 1, D))
pos = nn.Parameter(torch.linspace(-0.5, 0.5, 5 * D).view(1, 5, D))
with torch.no_grad():
    patch_embed.weight.copy_(torch.linspace(-0.3, 0.3, 96).view(8, 12))
    patch_embed.bias.zero_()

patches = torch.sin(torch.arange(3 * 4 * 12, dtype=torch.float32) * 0.09).view(3, 4, 12)
pad = torch.tensor([[False] * 5, [False, False, False, False, True], [False, False, False, True, True]])
labels = torch.tensor([1, 0, 1])
head = nn.Linear(D, 2)
with torch.no_grad():
    head.weight.fill_(0.1)
    head.bias.zero_()

params = list(encoder.parameters()) + list(patch_embed.parameters()) + [cls_token, pos] + list(head.parameters())
opt = torch.optim.AdamW(params, lr=5e-3)
for step in range(10):
    x = patch_embed(patches)
    x = torch.cat([cls_token.expand(3, -1, -1), x], dim=1) + pos
    z = encoder(x, src_key_padding_mask=pad)
    loss = F.cross_entropy(head(z[:, 0]), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", z.shape)

encoder.eval()
with torch.no_grad():
    z = encoder(x, src_key_padding_mask=pad)
print(z[2, :2])
print(cls_token.grad.view(-1)[:4].mul(1e3).round(decimals=2), pos.grad.shape)
causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
with torch.no_grad():
    zc = encoder(x, mask=causal, is_causal=True)
print(zc.shape, zc[0, 0, :3])
