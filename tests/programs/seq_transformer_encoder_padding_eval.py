# A sentence encoder built from nn.TransformerEncoder (batch_first) with a sinusoidal positional
# encoding buffer and Embedding(padding_idx=0): train-mode forward with src_key_padding_mask,
# masked mean pooling, then inference under model.eval() + torch.no_grad() -- where PyTorch takes
# its "fast path" (nested tensors) and returns zeros at the padded positions, a frequent
# StackOverflow surprise -- and with enable_nested_tensor=False, where it does not.
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=16):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(position * div_term)
        pe[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=9, d=4, nested=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = PositionalEncoding(d)
        layer = nn.TransformerEncoderLayer(d, nhead=2, dim_feedforward=8, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=nested)

    def forward(self, ids):
        pad = ids == 0
        h = self.encoder(self.pos(self.embed(ids)), src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return h, (h * keep).sum(1) / keep.sum(1)


def init(m):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape).roll(i) * (1 + 0.05 * i))


model = SentenceEncoder()
init(model)
print(model.pos.pe[0, :3], [n for n, _ in model.named_buffers()])
ids = torch.tensor([[5, 3, 8, 0, 0], [2, 7, 1, 4, 6]])

model.eval()  # dropout off, but autograd still on: the regular path
h, pooled = model(ids)
print(h[0], pooled, h.grad_fn.name(), sep="\n")
pooled.sum().backward()
print(model.embed.weight.grad[0], model.embed.weight.grad[5])

with torch.no_grad():
    h_fast, pooled_fast = model(ids)
print(h_fast[0])
print(torch.allclose(pooled_fast, pooled), h_fast[0, 3:].abs().sum().item())
print(h_fast.is_nested, h_fast.shape)

plain = SentenceEncoder(nested=False)
init(plain)
plain.eval()
with torch.no_grad():
    h_plain, pooled_plain = plain(ids)
print(h_plain[0, 3:])
print(torch.allclose(pooled_plain, pooled), torch.allclose(h_plain[:, :3], h[:, :3].detach(), atol=1e-6))

with torch.inference_mode():
    h_inf, _ = model(ids[1:])
print(h_inf.shape, torch.allclose(h_inf[0], h[1].detach(), atol=1e-6))
