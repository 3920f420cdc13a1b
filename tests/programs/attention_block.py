# A tiny causal self-attention block: softmax(Q K^T / sqrt(d)) V with a tril mask.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, n_embd, bias=False)
        self.query = nn.Linear(n_embd, n_embd, bias=False)
        self.value = nn.Linear(n_embd, n_embd, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * C ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = F.softmax(wei, dim=-1)
        v = self.value(x)
        return wei @ v, wei


torch.manual_seed(1337)
B, T, C = 2, 4, 8
att = CausalSelfAttention(C, block_size=8)
with torch.no_grad():
    for i, p in enumerate(att.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view(p.shape) * 0.3)
x = torch.cos(torch.arange(B * T * C, dtype=torch.float32) * 0.2).view(B, T, C)
out, wei = att(x)
print(out.shape, wei.shape)
print(wei[0])
print(att.tril[:4, :4])
print(list(dict(att.named_buffers()).keys()), [n for n, _ in att.named_parameters()])
out.sum().backward()
print(att.query.weight.grad[0])

# The same weights by hand with matmul and an explicit scale
q = x @ att.query.weight.T
k = x @ att.key.weight.T
scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(C)
mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
scores = scores.masked_fill(mask, -1e9)
print(torch.allclose(scores.softmax(-1), wei, atol=1e-6))
print(torch.tril(torch.arange(1, 10).view(3, 3)), torch.triu(torch.arange(1, 10).view(3, 3), diagonal=1))
multi = wei.unsqueeze(1).expand(B, 2, T, T)
print(multi.shape, multi.is_contiguous(), multi.contiguous().view(B, 2 * T, T).shape)
