# Transformer building blocks as configured in blog-post models (ViT/GPT-style): norm_first
# (pre-LN) layers, activation="gelu" and a callable activation, bool vs float masks,
# is_causal with a causal mask, TransformerDecoder with memory/tgt key padding masks, a final
# LayerNorm passed as norm=, module reprs, and the d_model % nhead error.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fill_(module, k=0.53):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            if "norm" in name:
                p.copy_(1.0 + 0.1 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i)) if name.endswith("weight") else p.fill_(0.05)
            else:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view(p.shape) * 0.3)
    return module


x = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.21).view(2, 5, 8)
for kwargs in (dict(norm_first=True), dict(activation="gelu"), dict(activation=F.silu, norm_first=True)):
    layer = fill_(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, **kwargs))
    y = layer(x)
    print(kwargs.get("norm_first", False), y.shape, y[0, 0, :4], y.grad_fn.name())
print(layer.activation if not callable(layer.activation) or isinstance(layer.activation, nn.Module) else layer.activation.__name__, layer.norm_first)

enc = fill_(nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True),
                                  num_layers=2, norm=nn.LayerNorm(8), enable_nested_tensor=False))
print(enc.norm, len(enc.layers), enc.layers[0] is enc.layers[1], torch.equal(enc.layers[0].linear1.weight, enc.layers[1].linear1.weight))
causal_f = nn.Transformer.generate_square_subsequent_mask(5)
causal_b = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
enc.eval()
with torch.no_grad():
    a = enc(x, mask=causal_f)
    b = enc(x, mask=causal_b)
    c = enc(x, mask=causal_f, is_causal=True)
print(torch.allclose(a, b, atol=1e-6), torch.allclose(a, c, atol=1e-6), a[1, 4, :4])
# a causal encoder's first position ignores the rest of the sequence
with torch.no_grad():
    d = enc(x[:, :1], mask=causal_f[:1, :1])
print(torch.allclose(a[:, 0], d[:, 0], atol=1e-5))

dec_layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
decoder = fill_(nn.TransformerDecoder(dec_layer, num_layers=1), 0.37)
print(decoder)
memory = a.detach()
tgt = torch.sin(torch.arange(2 * 3 * 8, dtype=torch.float32) * 0.17).view(2, 3, 8).requires_grad_()
tgt_pad = torch.tensor([[False, False, True], [False, False, False]])
mem_pad = torch.tensor([[False, False, False, True, True], [False] * 5])
out = decoder(tgt, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3),
              tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=mem_pad)
print(out.shape, out[0, 1, :4])
out[:, :2].pow(2).sum().backward()
print(tgt.grad[0, 2].abs().sum().item() == 0, tgt.grad[1, 0, :4])

try:
    nn.TransformerEncoderLayer(d_model=10, nhead=3)
except AssertionError as e:
    print(type(e).__name__, e)
try:
    nn.TransformerEncoderLayer(8, 2, activation="swish")
except RuntimeError as e:
    print(type(e).__name__, e)
