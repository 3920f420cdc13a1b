# Incremental (step-by-step) greedy decoding with a hand-written key/value cache around
# nn.MultiheadAttention (query = last token, keys = all tokens so far) checked against one
# causal pass, and nn.TransformerDecoder re-run on the growing prefix with tgt_is_causal=True.
import torch
import torch.nn as nn

D, H, T = 8, 2, 5
attn = nn.MultiheadAttention(D, H, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(attn.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + 0.7 * i).view(p.shape) * 0.5)
attn.eval()
x = torch.cos(torch.arange(2 * T * D, dtype=torch.float32) * 0.21).view(2, T, D)
causal = nn.Transformer.generate_square_subsequent_mask(T)
full, full_w = attn(x, x, x, attn_mask=causal)

steps, weights = [], []
k_cache = v_cache = None
for t in range(T):
    cur = x[:, t:t + 1]
    k_cache = cur if k_cache is None else torch.cat([k_cache, cur], dim=1)
    v_cache = k_cache
    y, w = attn(cur, k_cache, v_cache)
    steps.append(y)
    weights.append(w)
inc = torch.cat(steps, dim=1)
print(inc.shape, torch.allclose(inc, full, atol=1e-6), [tuple(w.shape) for w in weights])
print(weights[-1][1], full_w[1, -1], sep="\n")
print(full[0, 2])

# the same with the cached keys given as key= and a boolean key_padding_mask that hides pads
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
y_last, w_last = attn(x[:, -1:], x, x, key_padding_mask=pad)
print(w_last[:, 0].round(decimals=4))

dec_layer = nn.TransformerDecoderLayer(D, H, 16, dropout=0.0, batch_first=True, norm_first=True)
decoder = nn.TransformerDecoder(dec_layer, num_layers=2, norm=nn.LayerNorm(D))
with torch.no_grad():
    for i, (n, p) in enumerate(decoder.named_parameters()):
        if "norm" in n:
            p.copy_(torch.ones_like(p) if n.endswith("weight") else torch.zeros_like(p))
        else:
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.31 + i).view(p.shape) * 0.4)
decoder.eval()
memory = torch.sin(torch.arange(2 * 3 * D, dtype=torch.float32) * 0.5).view(2, 3, D)
with torch.no_grad():
    ref = decoder(x, memory, tgt_mask=causal, tgt_is_causal=True)
    outs = []
    for t in range(1, T + 1):
        m = nn.Transformer.generate_square_subsequent_mask(t)
        outs.append(decoder(x[:, :t], memory, tgt_mask=m, tgt_is_causal=True)[:, -1])
    inc_dec = torch.stack(outs, dim=1)
print(torch.allclose(ref, inc_dec, atol=1e-5), ref[1, -1])
with torch.no_grad():
    no_mask = decoder(x, memory)
print(torch.allclose(no_mask[:, -1], ref[:, -1], atol=1e-5), torch.allclose(no_mask[:, 0], ref[:, 0], atol=1e-5))
try:
    decoder(x, memory, tgt_is_causal=True)
except RuntimeError as e:
    print(type(e).__name__, e)
