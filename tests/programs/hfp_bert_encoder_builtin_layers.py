# BERT-ish encoder built on nn.TransformerEncoder / nn.MultiheadAttention as in many HF ports:
# get_extended_attention_mask with finfo.min, key_padding_mask (bool) for the built-in layers,
# nested-tensor warnings, eval fast path zeroing padded rows, per-head attention weights, pooler.
import warnings
import torch
import torch.nn as nn


def det_init(module):
    with torch.no_grad():
        for i, (n, p) in enumerate(module.named_parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 0.3 * i).view_as(p) * 0.3)


def get_extended_attention_mask(attention_mask, dtype):
    extended = attention_mask[:, None, None, :].to(dtype=dtype)
    return (1.0 - extended) * torch.finfo(dtype).min


input_ids = torch.tensor([[2, 5, 7, 9, 3], [2, 6, 3, 0, 0]])
attention_mask = (input_ids != 0).long()
ext = get_extended_attention_mask(attention_mask, torch.float32)
print(ext.shape, ext[1, 0, 0])

emb = nn.Embedding(10, 8, padding_idx=0)
tok_type = nn.Embedding(2, 8)
ln = nn.LayerNorm(8, eps=1e-12)
det_init(emb); det_init(tok_type)
x = ln(emb(input_ids) + tok_type(torch.zeros_like(input_ids)))

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation="gelu")
    enc_seq_first = nn.TransformerEncoder(layer, num_layers=2)
    layer_bf = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True)
    enc_norm_first = nn.TransformerEncoder(layer_bf, num_layers=2)
    for m in w:
        print("warn:", m.message)

layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation="gelu", batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=True)
det_init(encoder)
print([n for n, _ in encoder.named_parameters()][:8])
key_padding_mask = attention_mask == 0
encoder.train()
out_train = encoder(x, src_key_padding_mask=key_padding_mask)
encoder.eval()
with torch.no_grad():
    out_eval = encoder(x, src_key_padding_mask=key_padding_mask)
print("train/eval same on real tokens:", torch.allclose(out_train[attention_mask.bool()], out_eval[attention_mask.bool()], atol=1e-5))
print("eval padded rows:", out_eval[1, 3:].abs().sum().item(), "train padded rows zero:", bool((out_train[1, 3:] == 0).all()))
print(torch.round(out_eval[0, 0], decimals=4))

mha = nn.MultiheadAttention(8, 2, batch_first=True)
det_init(mha)
o, w_avg = mha(x, x, x, key_padding_mask=key_padding_mask)
o2, w_heads = mha(x, x, x, key_padding_mask=key_padding_mask, average_attn_weights=False)
print(w_avg.shape, w_heads.shape, torch.allclose(w_heads.mean(1), w_avg))
print(torch.round(w_heads[1, 1], decimals=4))
float_mask = torch.zeros(5, 5).masked_fill(torch.triu(torch.ones(5, 5, dtype=torch.bool), 1), float("-inf"))
o3, w3 = mha(x, x, x, attn_mask=float_mask, key_padding_mask=key_padding_mask)
print(torch.round(w3[1], decimals=3))
try:
    mha(x, x, x, attn_mask=float_mask.bool(), key_padding_mask=key_padding_mask.float())
except Exception as e:
    print(type(e).__name__, e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    o4, _ = mha(x, x, x, attn_mask=float_mask.bool(), key_padding_mask=key_padding_mask.float() * 0 + key_padding_mask)
    print([str(m.message)[:80] for m in w])

pooler = nn.Sequential(nn.Linear(8, 8), nn.Tanh())
classifier = nn.Linear(8, 3)
det_init(pooler); det_init(classifier)
logits = classifier(pooler(out_train[:, 0]))
loss = nn.CrossEntropyLoss()(logits, torch.tensor([1, 2]))
loss.backward()
print(f"loss {loss.item():.4f}", torch.round(logits, decimals=4))
print("emb pad grad:", emb.weight.grad[0].abs().sum().item(), f"{emb.weight.grad.abs().sum().item():.4f}")
