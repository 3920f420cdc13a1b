# Rotary position embeddings without complex numbers (HF LLaMA / GPT-NeoX style):
# inv_freq buffer, torch.outer, cat((freqs, freqs)), cos/sin caches, rotate_half via chunk/cat,
# position_ids gathering, partial rotary, and the relative-position property of q.k.
import torch
import torch.nn as nn


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position_embeddings=16, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_position_embeddings, dtype=torch.int64).type_as(self.inv_freq)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype=x.dtype), emb.sin().to(dtype=x.dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


rope = RotaryEmbedding(4)
print(rope, rope.inv_freq, list(rope.state_dict().keys()), [n for n, _ in rope.named_buffers()])
print(rope.cos_cached.shape, rope.cos_cached[:3])
print(torch.outer(torch.arange(3.0), torch.tensor([1.0, 0.5])), torch.arange(3.0).outer(torch.tensor([2.0])))

bsz, heads, seq, hd = 1, 2, 5, 4
q = torch.linspace(-1, 1, bsz * heads * seq * hd).view(bsz, heads, seq, hd).requires_grad_(True)
k = torch.linspace(1, -0.55, bsz * heads * seq * hd).view(bsz, heads, seq, hd)
position_ids = torch.arange(seq).unsqueeze(0)
cos, sin = rope(q, position_ids)
print(cos.shape, sin.dtype, cos.requires_grad, torch.allclose(cos[0], rope.cos_cached[:seq]))
print(rotate_half(torch.arange(4.0)), rotate_half(torch.arange(6.0).view(1, 6)))
q_rot, k_rot = apply_rotary_pos_emb(q, k, cos, sin)
print(q_rot[0, 0], q_rot.grad_fn.name(), k_rot.requires_grad)
print(q_rot.norm(dim=-1)[0, 0], q.norm(dim=-1)[0, 0])

# cached tables indexed with position ids (older HF code), plus positions with an offset
cos2 = rope.cos_cached[position_ids + 3]
print(cos2.shape, torch.allclose(cos2, rope(q, position_ids + 3)[0]))

# q.k after rotation depends only on the distance between positions
v = torch.tensor([0.3, -0.2, 0.5, 0.1]).view(1, 1, 1, 4).expand(1, 1, seq, 4)
cv, sv = rope(v, position_ids)
rv, _ = apply_rotary_pos_emb(v, v, cv, sv)
scores = rv[0, 0] @ rv[0, 0].T
print(scores)
print(torch.allclose(scores.diagonal(1), scores.diagonal(1)[0].expand(seq - 1)), scores.diagonal(-2))

(q_rot * k_rot).sum().backward()
print(q.grad[0, 1])

# GPT-NeoX partial rotary: only the first rotary_ndims features rotate
rotary_ndims = 2
query = torch.arange(2 * seq * 6, dtype=torch.float32).view(1, 2, seq, 6) / 10
q_rotpart, q_pass = query[..., :rotary_ndims], query[..., rotary_ndims:]
small = RotaryEmbedding(rotary_ndims)
c, s = small(query, position_ids)
qr, _ = apply_rotary_pos_emb(q_rotpart, q_rotpart, c, s)
query2 = torch.cat((qr, q_pass), dim=-1)
print(query2.shape, query2[0, 0, :, :3])
print(torch.equal(query2[..., 2:], query[..., 2:]))

# float64 inputs give float64 tables; int positions must be converted first
c64, _ = rope(q.double(), position_ids)
print(c64.dtype, position_ids.dtype, position_ids[:, None, :].float().dtype)
try:
    rope.inv_freq[None, :, None] @ position_ids[:, None, :]
except RuntimeError as e:
    print(type(e).__name__, e)
