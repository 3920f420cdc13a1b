# nanoGPT's CausalSelfAttention: c_attn split into q, k, v, heads via view/transpose,
# the "bias" tril buffer with masked_fill(-inf), and the flash path through
# F.scaled_dot_product_attention(is_causal=True); both paths must agree.
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class GPTConfig:
    block_size: int = 8
    n_head: int = 2
    n_embd: int = 8
    dropout: float = 0.0
    bias: bool = True


class CausalSelfAttention(nn.Module):
    def __init__(self, config, flash):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        self.flash = flash and hasattr(torch.nn.functional, 'scaled_dot_product_attention')
        if not self.flash:
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                 .view(1, 1, config.block_size, config.block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = torch.nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
            self.last_att = att
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        y = self.resid_dropout(self.c_proj(y))
        return y


def init(m):
    with torch.no_grad():
        for name, p in m.named_parameters():
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37).view(p.shape) * 0.3)


cfg = GPTConfig()
print(cfg)
slow, fast = CausalSelfAttention(cfg, flash=False), CausalSelfAttention(cfg, flash=True)
slow.apply(init); fast.apply(init)
print(slow.flash, fast.flash, [n for n, _ in slow.named_buffers()], [n for n, _ in fast.named_buffers()])
print(list(slow.state_dict().keys()))
print(slow.bias.shape, slow.bias.dtype, slow.bias[0, 0, :3, :3])
print(slow)

x = torch.sin(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.3).view(2, 5, 8).requires_grad_()
y_slow = slow(x)
y_fast = fast(x)
print(y_slow.shape, torch.allclose(y_slow, y_fast, atol=1e-6))
print(y_slow[0, :2])
print(slow.last_att[0, 0])
print(y_slow.grad_fn.name(), y_fast.grad_fn.name())
y_slow.pow(2).sum().backward()
g_slow = x.grad.clone(); x.grad = None
y_fast.pow(2).sum().backward()
print(torch.allclose(g_slow, x.grad, atol=1e-5), g_slow[1, -1])
print(torch.allclose(slow.c_attn.weight.grad, fast.c_attn.weight.grad, atol=1e-5))
print(slow.c_attn.bias.grad[:8])

# the mask rows: the first token only sees itself
q = torch.arange(12, dtype=torch.float32).view(1, 1, 3, 4) / 10
out = F.scaled_dot_product_attention(q, q, q, is_causal=True)
print(out)
tril = torch.tril(torch.ones(3, 3, dtype=torch.bool))
print(torch.allclose(out, F.scaled_dot_product_attention(q, q, q, attn_mask=tril)))
print(F.scaled_dot_product_attention(q, q, q, attn_mask=~tril[:, :]).isnan().any())
wei = torch.zeros(3, 3).masked_fill(tril == 0, float('-inf'))
print(wei, F.softmax(wei, dim=-1))
# on CPU an explicit mask together with is_causal=True is combined with the causal mask
m = torch.tensor([[True, False, True], [True, True, True], [False, True, True]])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=m, is_causal=True))
qg = q.clone().requires_grad_()
print(F.scaled_dot_product_attention(qg, qg, qg, is_causal=True).requires_grad)
try:
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(2, 2, dtype=torch.bool))
except RuntimeError as e:
    print(type(e).__name__, e)
