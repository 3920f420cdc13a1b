# nn.Embedding(scale_grad_by_freq=True) as in fairseq/old OpenNMT: gradients of frequent
# tokens are divided by their count in the mini-batch; combined with padding_idx and sparse grads.
import torch
import torch.nn as nn
import torch.nn.functional as F

vocab, dim = 7, 3
w0 = torch.sin(torch.arange(vocab * dim, dtype=torch.float32)).view(vocab, dim)

tokens = torch.tensor([[1, 2, 2, 0], [2, 3, 1, 0], [5, 5, 5, 5]])
upstream = torch.linspace(-1.0, 1.0, tokens.numel() * dim).view(*tokens.shape, dim)

for scale in (False, True):
    emb = nn.Embedding(vocab, dim, padding_idx=0, scale_grad_by_freq=scale)
    with torch.no_grad():
        emb.weight.copy_(w0)
    print(emb)
    out = emb(tokens)
    out.backward(upstream)
    print("scale", scale)
    print(emb.weight.grad)

# functional form, with sparse gradient
w = w0.clone().requires_grad_()
out = F.embedding(tokens, w, padding_idx=0, scale_grad_by_freq=True, sparse=True)
try:
    (out * upstream).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
out = F.embedding(tokens, w, padding_idx=0, sparse=True)
(out * upstream).sum().backward()
g = w.grad
print(g.layout, g.is_coalesced(), g._nnz())
gc = g.coalesce()
print(gc.indices())
print(gc.values())
print(gc.to_dense())

# counts per row: the ratio between unscaled and scaled grads is the batch frequency
counts = torch.bincount(tokens.flatten(), minlength=vocab)
print(counts)
emb_plain = nn.Embedding(vocab, dim)
emb_freq = nn.Embedding(vocab, dim, scale_grad_by_freq=True)
for e in (emb_plain, emb_freq):
    with torch.no_grad():
        e.weight.copy_(w0)
    e(tokens).sum().backward()
ratio = emb_plain.weight.grad[:, 0] / emb_freq.weight.grad[:, 0].clamp_min(1e-12)
print(ratio)
print(emb_freq.weight.grad[4], emb_freq.weight.grad[6])

# a single repeated token in a 1-D input
e = nn.Embedding(4, 2, scale_grad_by_freq=True)
with torch.no_grad():
    e.weight.copy_(torch.arange(8.0).view(4, 2))
y = e(torch.tensor([3, 3, 3, 1]))
y.pow(2).sum().backward()
print(e.weight.grad)
