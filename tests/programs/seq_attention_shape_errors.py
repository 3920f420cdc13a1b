# StackOverflow-style "why does my attention layer crash" questions: nn.MultiheadAttention and
# nn.TransformerEncoderLayer / nn.Transformer called with wrong query/key/value shapes, wrong
# attn_mask or key_padding_mask shapes, is_causal without a mask, nhead not dividing d_model --
# printing each error -- plus the shapes that do work (unbatched 2-D inputs, a callable
# activation's repr) and the warning nn.Transformer emits when batch_first is left False.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def init(m, scale=0.2):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * scale * (1 + 0.1 * i))


def attempt(name, fn):
    try:
        out = fn()
        print(name, "ok", tuple(out.shape) if isinstance(out, torch.Tensor) else [tuple(t.shape) for t in out])
    except Exception as e:
        print(name, type(e).__name__, e)


mha = nn.MultiheadAttention(4, 2, batch_first=True)
init(mha)
x = torch.linspace(-1, 1, 24).reshape(2, 3, 4)
causal = nn.Transformer.generate_square_subsequent_mask(3)

attempt("fine", lambda: mha(x, x, x))
attempt("unbatched", lambda: mha(x[0], x[0], x[0]))
out, w = mha(x[0], x[0], x[0], key_padding_mask=torch.tensor([False, False, True]))
print(w)
out, w = mha(x, x, x, attn_mask=causal, is_causal=True)
print(w[0])
attempt("is_causal without mask", lambda: mha(x, x, x, is_causal=True))
attempt("4-D query", lambda: mha(torch.ones(1, 2, 3, 4), torch.ones(1, 2, 3, 4), torch.ones(1, 2, 3, 4)))
attempt("key/value length", lambda: mha(x, x, x[:, :2]))
attempt("query features", lambda: mha(torch.ones(2, 3, 5), x, x))
attempt("mask 2-D shape", lambda: mha(x, x, x, attn_mask=torch.zeros(2, 2)))
attempt("nhead", lambda: nn.MultiheadAttention(4, 3))

# (PyTorch's F.gelu is a C builtin, which prints as <built-in function gelu>: compare the name)
print(nn.TransformerEncoderLayer(4, 2, 8, activation=F.gelu).activation.__name__)
layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True, activation=F.relu)
init(layer)
print(layer.activation is F.relu)
print(layer(x, src_mask=causal, is_causal=True)[1])
attempt("layer src_mask", lambda: layer(x, src_mask=torch.zeros(2, 2)))
attempt("layer padding mask", lambda: layer(x, src_key_padding_mask=torch.zeros(2, 4, dtype=torch.bool)))
attempt("layer nhead", lambda: nn.TransformerEncoderLayer(4, 3))

dec = nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
init(dec)
memory = torch.linspace(1, -1, 16).reshape(2, 2, 4)
print(dec(x, memory, tgt_mask=causal, tgt_is_causal=True)[0])
attempt("decoder is_causal without mask", lambda: dec(x, memory, tgt_is_causal=True))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model = nn.Transformer(4, 2, 1, 1, 8, 0.0)
print([str(c.message) for c in caught])
attempt("transformer src_mask", lambda: model(torch.ones(3, 2, 4), torch.ones(2, 2, 4), src_mask=torch.zeros(2, 2)))
attempt("transformer ok", lambda: model(torch.ones(3, 2, 4), torch.ones(2, 2, 4), tgt_mask=model.generate_square_subsequent_mask(2)))
