# Inspecting nn.Transformer configurations the way people do before training: parameter counts
# per submodule, state_dict keys, what activation / norm_first / bias=False change, and moving
# weights from a seq-first model into a batch_first one (outputs must match after transposing).
import torch
import torch.nn as nn


def count(m):
    return sum(p.numel() for p in m.parameters())


base = nn.Transformer(d_model=16, nhead=4, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=32, dropout=0.0)
print(count(base), count(base.encoder), count(base.decoder), count(base.encoder.layers[0]),
      count(base.decoder.layers[0]), count(base.decoder.layers[0].multihead_attn))
keys = list(base.state_dict())
print(len(keys), keys[:3], keys[-3:])
print([k for k in keys if k.startswith("decoder.layers.0.")])
print(len(list(base.named_modules())), [n for n, _ in base.named_children()], base.batch_first, base.d_model, base.nhead)
for name, mod in base.encoder.layers[0].named_children():
    print(f"{name:10s} {type(mod).__name__:35s} {count(mod)}")

nobias = nn.Transformer(16, 4, 1, 1, 32, dropout=0.0, bias=False)
print(count(nobias), [k for k in nobias.state_dict() if "encoder.layers.0" in k])
gelu = nn.TransformerDecoderLayer(16, 4, 32, activation="gelu")
print(gelu.activation, gelu.norm_first, gelu.activation_relu_or_gelu if hasattr(gelu, "activation_relu_or_gelu") else None)
print(nn.TransformerEncoderLayer(16, 4, 32, activation=nn.GELU(approximate="tanh")).activation)
print(nn.TransformerEncoderLayer(16, 4).linear1, nn.TransformerEncoderLayer(16, 4).dropout.p)

with torch.no_grad():
    for i, p in enumerate(base.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.19 + i).view(p.shape) * 0.3)
bf = nn.Transformer(16, 4, 2, 2, 32, dropout=0.0, batch_first=True)
print(bf.load_state_dict(base.state_dict()))
src = torch.cos(torch.arange(5 * 2 * 16, dtype=torch.float32) * 0.07).view(5, 2, 16)
tgt = torch.sin(torch.arange(3 * 2 * 16, dtype=torch.float32) * 0.11).view(3, 2, 16)
tmask = nn.Transformer.generate_square_subsequent_mask(3)
base.eval()
bf.eval()
with torch.no_grad():
    a = base(src, tgt, tgt_mask=tmask)
    b = bf(src.transpose(0, 1), tgt.transpose(0, 1), tgt_mask=tmask)
print(a.shape, b.shape, torch.allclose(a, b.transpose(0, 1), atol=1e-5))
print(a[2, 1])
# memory mask and per-batch padding on the encoder side
mem_mask = torch.zeros(3, 5)
mem_mask[:, 4] = float("-inf")
with torch.no_grad():
    c = base(src, tgt, tgt_mask=tmask, memory_mask=mem_mask)
    d = base(src, tgt, tgt_mask=tmask, memory_key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2))
print(torch.allclose(c, d, atol=1e-6), (c - a).abs().max() > 0)

bf.decoder.layers[1].load_state_dict(bf.decoder.layers[0].state_dict())
print(torch.equal(bf.decoder.layers[1].linear1.weight, bf.decoder.layers[0].linear1.weight),
      bf.decoder.layers[1].linear1.weight is bf.decoder.layers[0].linear1.weight)
missing = bf.load_state_dict({k: v for k, v in base.state_dict().items() if "decoder" not in k}, strict=False)
print(len(missing.missing_keys), missing.missing_keys[:2], missing.unexpected_keys)
frozen = [n for n, p in bf.named_parameters() if n.startswith("encoder")]
for n, p in bf.named_parameters():
    p.requires_grad_(not n.startswith("encoder"))
print(len(frozen), sum(p.numel() for p in bf.parameters() if p.requires_grad))
