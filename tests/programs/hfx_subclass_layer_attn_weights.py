# The StackOverflow answer for "get attention weights out of nn.TransformerEncoder": subclass
# TransformerEncoderLayer / TransformerDecoderLayer and override the _sa_block / _mha_block
# helpers that their forward() calls, stashing per-head weights (need_weights=True).
import torch
import torch.nn as nn


class EncoderLayerWithAttn(nn.TransformerEncoderLayer):
    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x, w = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                              need_weights=True, average_attn_weights=False, is_causal=is_causal)
        self.attn_weights = w.detach()
        return self.dropout1(x)


class DecoderLayerWithAttn(nn.TransformerDecoderLayer):
    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x, w = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                   is_causal=is_causal, need_weights=True)
        self.cross_weights = w.detach()
        return self.dropout2(x)


def fill(m, k):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view(p.shape) * 0.4)
    return m


D = 8
enc = nn.TransformerEncoder(EncoderLayerWithAttn(D, 2, 16, dropout=0.0, batch_first=True), 2,
                            enable_nested_tensor=False)
dec = nn.TransformerDecoder(DecoderLayerWithAttn(D, 2, 16, dropout=0.0, batch_first=True), 1)
fill(enc, 0.37)
fill(dec, 0.53)
src = torch.cos(torch.arange(2 * 4 * D, dtype=torch.float32) * 0.3).view(2, 4, D)
tgt = torch.sin(torch.arange(2 * 3 * D, dtype=torch.float32) * 0.2).view(2, 3, D)
pad = torch.tensor([[False, False, False, True], [False, False, True, True]])
mem = enc(src, src_key_padding_mask=pad)
out = dec(tgt, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3), memory_key_padding_mask=pad)
print(type(enc.layers[0]).__name__, out.shape)
for i, layer in enumerate(enc.layers):
    print(i, layer.attn_weights.shape, layer.attn_weights[1, 0].round(decimals=4))
print(dec.layers[0].cross_weights.shape, dec.layers[0].cross_weights[0].round(decimals=4))
print(out[1, 2])

# the plain layers give the same outputs
plain_enc = fill(nn.TransformerEncoder(nn.TransformerEncoderLayer(D, 2, 16, dropout=0.0, batch_first=True), 2,
                                       enable_nested_tensor=False), 0.37)
plain_dec = fill(nn.TransformerDecoder(nn.TransformerDecoderLayer(D, 2, 16, dropout=0.0, batch_first=True), 1), 0.53)
mem2 = plain_enc(src, src_key_padding_mask=pad)
out2 = plain_dec(tgt, mem2, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3), memory_key_padding_mask=pad)
print(torch.allclose(out, out2, atol=1e-6), torch.allclose(mem, mem2, atol=1e-6))
print(sorted(n for n in vars(type(plain_enc.layers[0])) if n.startswith("_") and n.endswith("block")))
print(sorted(n for n in vars(type(plain_dec.layers[0])) if n.startswith("_") and n.endswith("block")))
