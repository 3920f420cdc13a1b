# Debugging nn.MultiheadAttention / nn.TransformerEncoderLayer mask mistakes: int masks, wrong
# 2-D / 3-D attn_mask shapes, key_padding_mask of wrong size, mixing bool and float masks (warning).
import warnings

import torch
import torch.nn as nn

torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2, batch_first=True)
x = torch.linspace(-1, 1, 2 * 5 * 8).reshape(2, 5, 8)


def attempt(label, **kw):
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out, attn = mha(x, x, x, **kw)
        print(label, "ok", tuple(out.shape), None if attn is None else tuple(attn.shape))
        for m in w:
            print("  warning:", m.category.__name__, str(m.message)[:100])
    except Exception as e:
        print(label, type(e).__name__, str(e)[:140])


attempt("int attn_mask", attn_mask=torch.zeros(5, 5, dtype=torch.long))
attempt("int kpm", key_padding_mask=torch.zeros(2, 5, dtype=torch.int32))
attempt("2d wrong", attn_mask=torch.zeros(4, 5, dtype=torch.bool))
attempt("3d wrong", attn_mask=torch.zeros(2, 5, 5, dtype=torch.bool))
attempt("3d right", attn_mask=torch.zeros(4, 5, 5, dtype=torch.bool))
attempt("4d", attn_mask=torch.zeros(2, 2, 5, 5, dtype=torch.bool))
attempt("kpm wrong batch", key_padding_mask=torch.zeros(3, 5, dtype=torch.bool))
attempt("kpm wrong len", key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))
attempt("mixed", attn_mask=torch.zeros(5, 5), key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))
attempt("no weights", need_weights=False)
attempt("per head", average_attn_weights=False)
attempt("causal no mask", is_causal=True)
attempt("float kpm", key_padding_mask=torch.tensor([[0., 0, 0, float("-inf"), float("-inf")]] * 2))

q = torch.zeros(2, 5, 6)
try:
    mha(q, q, q)
except Exception as e:
    print(type(e).__name__, e)

try:
    nn.MultiheadAttention(10, 3)
except Exception as e:
    print(type(e).__name__, e)

try:
    nn.TransformerEncoderLayer(8, 2, activation="tanh")
except Exception as e:
    print(type(e).__name__, e)

layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
try:
    layer(x, src_mask=torch.zeros(3, 3, dtype=torch.bool))
except Exception as e:
    print(type(e).__name__, str(e)[:140])
try:
    layer(x, src_key_padding_mask=torch.zeros(2, 5, dtype=torch.float64))
    print("float64 kpm accepted")
except Exception as e:
    print(type(e).__name__, str(e)[:140])

# fully masked rows give NaN
full = torch.ones(2, 5, dtype=torch.bool)
out, attn = mha(x, x, x, key_padding_mask=full)
print("all masked -> nan:", torch.isnan(out).all().item(), torch.isnan(attn).all().item())

# a float32 query into a half-precision module (forgot .half() on one input)
half = nn.MultiheadAttention(8, 2, batch_first=True, dtype=torch.float16)
for args in ((x, x.half(), x.half()), (x.half(), x, x), (x, x, x)):
    try:
        half(*args)
    except RuntimeError as e:
        print("RuntimeError", e)
mixed = nn.Linear(8, 4)
with torch.no_grad():
    mixed.weight.fill_(0.5)
    mixed.bias.fill_(0.25)
out = torch.nn.functional.linear(x.transpose(0, 1), mixed.weight, mixed.bias.double())
print(out.dtype, out[0, 0])
