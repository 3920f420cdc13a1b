# Attention-mask dtype pitfalls from forum threads: the old Annotated Transformer uint8
# subsequent_mask, masks built in float64 (numpy / torch.tensor of Python floats) or float16
# fed to float32 attention, -1e9 vs -inf filling, and the conversions people settle on.
import warnings
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def subsequent_mask(size):
    attn_shape = (1, size, size)
    mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return mask == 0


print(subsequent_mask(4))
print(torch.triu(torch.ones(1, 3, 3), diagonal=1).type(torch.uint8))

E, H, L, N = 4, 2, 3, 2
mha = nn.MultiheadAttention(E, H, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view(p.shape) * 0.4)
x = torch.sin(torch.arange(N * L * E, dtype=torch.float32)).view(N, L, E)
scores = torch.linspace(-1, 1, 9).view(3, 3)


def attempt(name, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(name, "ok", out if out.numel() <= 4 else out.reshape(-1)[:4])
        except (RuntimeError, AssertionError) as e:
            print(name, type(e).__name__, str(e).splitlines()[0])
    for c in caught:
        print("   warning:", str(c.message)[:80])


u8 = torch.triu(torch.ones(L, L), diagonal=1).type(torch.uint8)
attempt("masked_fill uint8", lambda: scores.masked_fill(u8, float("-inf")))
attempt("masked_fill bool", lambda: scores.masked_fill(u8.bool(), -1e9).softmax(-1)[0])
attempt("masked_fill ==0", lambda: scores.masked_fill(subsequent_mask(3)[0] == 0, -1e9).softmax(-1)[1])
attempt("mha uint8 mask", lambda: mha(x, x, x, attn_mask=u8)[0])
attempt("mha uint8 kpm", lambda: mha(x, x, x, key_padding_mask=torch.zeros(N, L, dtype=torch.uint8))[0])
np_mask = torch.from_numpy(np.triu(np.full((L, L), -np.inf), k=1))
print(np_mask.dtype)
attempt("mha float64 mask", lambda: mha(x, x, x, attn_mask=np_mask)[0])
attempt("mha float64 mask nw", lambda: mha(x, x, x, attn_mask=np_mask, need_weights=False)[0])
attempt("mha float16 mask", lambda: mha(x, x, x, attn_mask=np_mask.half())[0])
attempt("mha float64 fixed", lambda: mha(x, x, x, attn_mask=np_mask.float())[0])
attempt("mha bool vs float", lambda: mha(x, x, x, attn_mask=u8.bool(), key_padding_mask=torch.zeros(N, L))[0])
attempt("mha int kpm", lambda: mha(x, x, x, key_padding_mask=torch.tensor([[0, 0, 1], [0, 1, 1]]))[0])
attempt("mha -1e9 mask", lambda: mha(x, x, x, attn_mask=u8.float() * -1e9)[1][0, 0])
attempt("mha -inf mask", lambda: mha(x, x, x, attn_mask=nn.Transformer.generate_square_subsequent_mask(L))[1][0, 0])
attempt("sdpa float64 mask", lambda: F.scaled_dot_product_attention(x, x, x, attn_mask=np_mask))
attempt("sdpa uint8 mask", lambda: F.scaled_dot_product_attention(x, x, x, attn_mask=u8))
attempt("sdpa bool mask", lambda: F.scaled_dot_product_attention(x, x, x, attn_mask=u8 == 0)[0, 1])

enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, 8, dropout=0.0, batch_first=True), 1,
                            enable_nested_tensor=False)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view(p.shape) * 0.4)
pad = torch.tensor([[0, 0, 1], [0, 1, 1]])
attempt("encoder int padding", lambda: enc(x, src_key_padding_mask=pad))
attempt("encoder bool padding", lambda: enc(x, src_key_padding_mask=pad.bool())[1, 0])
attempt("encoder float padding", lambda: enc(x, src_key_padding_mask=pad.float().masked_fill(pad.bool(), float("-inf")))[1, 0])
attempt("encoder mixed", lambda: enc(x, mask=u8.bool(), src_key_padding_mask=pad.float())[1, 0])
print(nn.Transformer.generate_square_subsequent_mask(3).bool(), nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float16).dtype)

# inference on the nested-tensor fast path: padded positions come back as zeros, with a warning
fast = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, 8, dropout=0.0, batch_first=True), 1)
fast.load_state_dict(enc.state_dict())
fast.eval()
with torch.no_grad():
    attempt("eval fast path", lambda: fast(x, src_key_padding_mask=pad.bool())[1])
    attempt("eval fast path again", lambda: fast(x, src_key_padding_mask=pad.bool())[1, 1])
