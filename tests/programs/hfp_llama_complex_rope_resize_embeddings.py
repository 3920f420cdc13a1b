# Meta-Llama reference style RoPE with complex numbers (precompute_freqs_cis via torch.polar,
# view_as_complex / view_as_real, reshape_for_broadcast) checked against the HF rotate_half form,
# then resize_token_embeddings(pad_to_multiple_of=8) with mean-initialised new rows, retied head.
import torch
import torch.nn as nn


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


bsz, seqlen, n_heads, head_dim = 2, 5, 2, 8
freqs_cis = precompute_freqs_cis(head_dim, 16)
print(freqs_cis.dtype, freqs_cis.shape)
print(torch.round(torch.view_as_real(freqs_cis[3]), decimals=4))
xq = torch.sin(torch.arange(bsz * seqlen * n_heads * head_dim, dtype=torch.float32) * 0.3).view(bsz, seqlen, n_heads, head_dim)
xk = torch.cos(torch.arange(bsz * seqlen * n_heads * head_dim, dtype=torch.float32) * 0.2).view(bsz, seqlen, n_heads, head_dim)
xq.requires_grad_(True)
q_rot, k_rot = apply_rotary_emb(xq, xk, freqs_cis[:seqlen])
print(q_rot.shape, q_rot.dtype, type(q_rot.grad_fn).__name__)

# HF layout: permute interleaved pairs into halves, then rotate_half with cat(freqs, freqs)
perm = torch.cat([torch.arange(0, head_dim, 2), torch.arange(1, head_dim, 2)])
ang = torch.angle(freqs_cis[:seqlen])
cos, sin = torch.cat([ang.cos()] * 2, -1), torch.cat([ang.sin()] * 2, -1)
xq_hf = xq[..., perm]
q_hf = xq_hf * cos[None, :, None, :] + rotate_half(xq_hf) * sin[None, :, None, :]
print("complex == rotate_half:", torch.allclose(q_rot[..., perm], q_hf, atol=1e-5))
print("norm preserved:", torch.allclose(q_rot.norm(dim=-1), xq.norm(dim=-1), atol=1e-5))
scores = (q_rot.transpose(1, 2) @ k_rot.transpose(1, 2).transpose(-1, -2)) / head_dim ** 0.5
scores.sum().backward()
print(torch.round(xq.grad[0, 1, 0], decimals=4))
print(torch.round(scores[0, 0, :3, :3], decimals=4))


class LM(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.embed_tokens.weight

    def resize_token_embeddings(self, new_num_tokens, pad_to_multiple_of=None):
        if pad_to_multiple_of is not None:
            new_num_tokens = ((new_num_tokens + pad_to_multiple_of - 1) // pad_to_multiple_of) * pad_to_multiple_of
        old = self.embed_tokens
        old_num, dim = old.weight.shape
        new = nn.Embedding(new_num_tokens, dim, device=old.weight.device, dtype=old.weight.dtype)
        n = min(old_num, new_num_tokens)
        with torch.no_grad():
            new.weight[:n] = old.weight[:n]
            if new_num_tokens > old_num:
                new.weight[old_num:] = old.weight.mean(dim=0, keepdim=True)
        self.embed_tokens = new
        self.lm_head.weight = self.embed_tokens.weight
        return new


lm = LM(10, 4)
with torch.no_grad():
    lm.embed_tokens.weight.copy_(torch.arange(40, dtype=torch.float32).view(10, 4).sin())
emb = lm.resize_token_embeddings(13, pad_to_multiple_of=8)
print(emb, lm.lm_head.weight.shape, lm.lm_head.weight is emb.weight)
print(torch.round(emb.weight[8:12], decimals=4))
logits = lm.lm_head(lm.embed_tokens(torch.tensor([[1, 12, 15]])))
print(logits.shape, logits.argmax(-1))
lm.resize_token_embeddings(6)
print(lm.embed_tokens.num_embeddings, sorted(lm.state_dict().keys()))
