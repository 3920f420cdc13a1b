# nn.TransformerEncoder used as a causal LM body: is_causal hint with generate_square_subsequent_mask,
# float vs bool causal masks (same output), mask dtype passed via dtype=, the error when is_causal
# has no mask, and training a tiny next-token model for a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

T, D, V = 6, 8, 5
m = nn.Transformer.generate_square_subsequent_mask(T, dtype=torch.float64)
print(m.dtype, m[1])
m32 = nn.Transformer.generate_square_subsequent_mask(T)
boolm = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
print(torch.equal(m32 == float("-inf"), boolm))

layer = nn.TransformerEncoderLayer(D, 2, dim_feedforward=16, dropout=0.0, batch_first=True,
                                   activation="gelu")
enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
emb = nn.Embedding(V, D)
head = nn.Linear(D, V)
modules = nn.ModuleList([emb, enc, head])
with torch.no_grad():
    for i, (name, p) in enumerate(modules.named_parameters()):
        n = torch.arange(p.numel(), dtype=torch.float32)
        if "norm" in name:
            p.copy_(torch.ones_like(p) if name.endswith("weight") else torch.zeros_like(p))
        else:
            p.copy_((0.3 * torch.cos(1.1 * n + i)).reshape(p.shape))

tokens = torch.tensor([[0, 1, 2, 3, 4, 0, 1], [4, 3, 2, 1, 0, 4, 3]])
x = emb(tokens[:, :-1])
a = enc(x, mask=m32, is_causal=True)
b = enc(x, mask=boolm)
c = enc(x, mask=m32)
print(torch.allclose(a, b, atol=1e-5), torch.allclose(a, c, atol=1e-5))
print(a[0, 0])
try:
    enc(x, is_causal=True)
    print("no error")
except Exception as e:
    print(type(e).__name__, str(e)[:120])
try:
    layer(x, is_causal=True)
except Exception as e:
    print(type(e).__name__, str(e)[:120])
try:
    enc(x, mask=torch.zeros(T, T, dtype=torch.int64))
except Exception as e:
    print(type(e).__name__, str(e)[:160])

opt = torch.optim.AdamW(modules.parameters(), lr=0.01, weight_decay=0.01)
for step in range(10):
    opt.zero_grad()
    h = enc(emb(tokens[:, :-1]), mask=m32, is_causal=True)
    loss = F.cross_entropy(head(h).reshape(-1, V), tokens[:, 1:].reshape(-1))
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(step, f"{loss.item():.4f}")
with torch.no_grad():
    pred = head(enc(emb(tokens[:, :-1]), mask=m32)).argmax(-1)
print(pred)
