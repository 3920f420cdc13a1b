# Rotary position embeddings the lit-gpt way: cos/sin caches registered as non-persistent buffers
# (absent from state_dict, moved by .to()), rotate_half, applying at an offset during decoding.
import torch
import torch.nn as nn


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_seq_len=16, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_seq_len, dtype=torch.float32)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, q, k, offset=0):
        T = q.shape[-2]
        cos = self.cos_cached[offset:offset + T]
        sin = self.sin_cached[offset:offset + T]
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4, bias=False)
        self.rope = RotaryEmbedding(4)


blk = Block()
print(blk)
print(list(blk.state_dict().keys()))
print([n for n, _ in blk.named_buffers()])
print(blk.rope.inv_freq)
print(blk.rope.cos_cached[:3].round(decimals=4))
blk64 = Block().double()
print(blk64.rope.cos_cached.dtype, blk64.rope.inv_freq.dtype, blk64.proj.weight.dtype)
blkh = Block().half()
print(blkh.rope.sin_cached.dtype)

q = torch.arange(2 * 2 * 5 * 4, dtype=torch.float32).view(2, 2, 5, 4) / 40
k = torch.flip(q, dims=[-1])
qr, kr = blk.rope(q, k)
print(qr.shape, qr[0, 0].round(decimals=4))
# norm is preserved by a rotation
print(torch.allclose(qr.norm(dim=-1), q.norm(dim=-1), atol=1e-6))
# relative property: <R_m q, R_n k> depends only on m - n
scores = (qr @ kr.transpose(-1, -2))[0, 0]
print(scores.round(decimals=4))
# decoding: applying at offset equals slicing the full result
q_last, k_last = blk.rope(q[..., 4:5, :], k[..., 4:5, :], offset=4)
print(torch.allclose(q_last, qr[..., 4:5, :]), torch.allclose(k_last, kr[..., 4:5, :]))

sd = blk.state_dict()
fresh = Block()
print(fresh.load_state_dict(sd))
try:
    fresh.load_state_dict({**sd, "rope.cos_cached": torch.zeros(16, 4)})
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(blk.rope._non_persistent_buffers_set == {"inv_freq", "cos_cached", "sin_cached"})
