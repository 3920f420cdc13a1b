# Inference with nn.TransformerEncoder on padded batches: enable_nested_tensor=True in eval()
# under no_grad (the fast path zeroes padded positions), the warnings saying why nested tensors
# are not used, and comparing against enable_nested_tensor=False on the non-padded positions.
import warnings

import torch
import torch.nn as nn


def det(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            n = torch.arange(p.numel(), dtype=torch.float32)
            if "norm" in name and name.endswith("weight"):
                p.copy_(1 + 0.1 * torch.cos(n + i))
            else:
                p.copy_((0.25 * torch.sin(0.9 * n + 0.5 * i)).reshape(p.shape))


def build(nested, **kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, **kw)
        enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=nested)
    for m in w:
        print("warning:", str(m.message))
    det(enc)
    return enc


enc_fast = build(True, batch_first=True)
enc_slow = build(False, batch_first=True)
print(enc_fast.use_nested_tensor, enc_slow.use_nested_tensor)
build(True, batch_first=False)
build(True, batch_first=True, norm_first=True)
build(True, batch_first=True, activation=lambda x: x.clamp(min=0))

x = torch.sin(torch.arange(3 * 5 * 8, dtype=torch.float32) * 0.17).reshape(3, 5, 8)
pad = torch.tensor([[False, False, False, True, True],
                    [False, False, False, False, False],
                    [False, False, True, True, True]])
enc_fast.eval()
enc_slow.eval()
with torch.no_grad():
    yf = enc_fast(x, src_key_padding_mask=pad)
    ys = enc_slow(x, src_key_padding_mask=pad)
print(yf.shape, ys.shape)
print("padded rows of fast path:", yf[pad].abs().sum().item())
print("same on real tokens:", torch.allclose(yf[~pad], ys[~pad], atol=1e-5))
print(yf[2])

# in training mode / with grad the slow path keeps values at padded positions
enc_fast.train()
yt = enc_fast(x, src_key_padding_mask=pad)
print(yt.requires_grad, yt[pad].abs().sum().item() > 0)
print("train == eval slow on real tokens:", torch.allclose(yt[~pad], ys[~pad], atol=1e-5))

# mean pooling over real tokens, as in sentence embeddings
keep = (~pad).unsqueeze(-1).float()
emb = (ys * keep).sum(1) / keep.sum(1)
print(emb)
