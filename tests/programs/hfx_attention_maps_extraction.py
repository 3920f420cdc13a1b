# Getting attention maps out of nn.TransformerEncoderLayer (which calls self_attn with
# need_weights=False): the blog-post trick of wrapping self_attn.forward to force
# need_weights=True / average_attn_weights=False plus a forward hook, in train and eval/no_grad,
# and what MultiheadAttention returns for fully padded sequences.
import torch
import torch.nn as nn

torch.backends.mha.set_fastpath_enabled(True)
d, h = 8, 2
layer = nn.TransformerEncoderLayer(d, h, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view(p.shape) * 0.5)

maps = {}


def patch_attention(m):
    forward_orig = m.forward

    def wrap(*args, **kwargs):
        kwargs["need_weights"] = True
        kwargs["average_attn_weights"] = False
        return forward_orig(*args, **kwargs)

    m.forward = wrap


def save_output(name):
    def hook(module, inputs, output):
        maps[name] = output[1]
    return hook


for i, lyr in enumerate(enc.layers):
    patch_attention(lyr.self_attn)
    lyr.self_attn.register_forward_hook(save_output(f"layer{i}"))

x = torch.sin(torch.arange(2 * 4 * d, dtype=torch.float32) * 0.5).view(2, 4, d)
pad = torch.tensor([[False, False, False, True], [False, False, True, True]])
y = enc(x, src_key_padding_mask=pad)
print(sorted(maps), maps["layer0"].shape, maps["layer1"].requires_grad)
print(maps["layer1"][1].round(decimals=4))
print(maps["layer0"].sum(-1))

enc.eval()
maps.clear()
with torch.no_grad():
    y2 = enc(x, src_key_padding_mask=pad)
print(sorted(maps), None if not maps else maps["layer0"].shape)
print(torch.allclose(y, y2, atol=1e-5), y2[1, 2:].abs().sum() > 0)

# plain MultiheadAttention: averaged / per-head weights, and a fully padded row
mha = nn.MultiheadAttention(d, h, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.23 - i).view(p.shape) * 0.5)
full_pad = torch.tensor([[False, False, True, True], [True, True, True, True]])
out, w = mha(x, x, x, key_padding_mask=full_pad)
print(out[1, 0], w[1, 0], sep="\n")
out, w = mha(x, x, x, key_padding_mask=full_pad, need_weights=False)
print(out[1, 0], w, sep="\n")
mha.eval()
with torch.no_grad():
    out, w = mha(x, x, x, key_padding_mask=full_pad)
    print(out[0, 0], w[0], sep="\n")
    print(out[1, 0], w[1, 0], sep="\n")
    out_nw, w_nw = mha(x, x, x, key_padding_mask=full_pad[:1].expand(2, -1), need_weights=False)
    print(out_nw[0, 0], w_nw)
    out_h, w_h = mha(x, x, x, average_attn_weights=False)
    print(w_h.shape, w_h[0, 1].round(decimals=4))
