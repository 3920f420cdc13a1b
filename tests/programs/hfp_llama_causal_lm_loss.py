# Llama-style causal LM written like transformers' modeling_llama.py: config dataclass,
# PreTrainedModel-ish base with _init_weights via apply, RoPE, RMSNorm, SwiGLU, triu/finfo.min
# causal mask merged with a padding attention_mask, shifted-label loss with ignore_index=-100.
from dataclasses import dataclass
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class LlamaConfig:
    vocab_size: int = 32
    hidden_size: int = 16
    intermediate_size: int = 40
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    max_position_embeddings: int = 32
    rms_norm_eps: float = 1e-6
    rope_theta: float = 10000.0
    pad_token_id: int = 0


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, max_pos, base):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_pos, dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, position_ids):
        return self.cos_cached[position_ids], self.sin_cached[position_ids]


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


class LlamaAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // self.num_heads
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.o_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)

    def forward(self, hidden_states, cos, sin, attention_mask):
        bsz, q_len, _ = hidden_states.size()
        q = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        attn_weights = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.head_dim)
        attn_weights = attn_weights + attention_mask
        attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(q.dtype)
        attn_output = torch.matmul(attn_weights, v)
        attn_output = attn_output.transpose(1, 2).contiguous().reshape(bsz, q_len, -1)
        return self.o_proj(attn_output)


class LlamaMLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.gate_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.up_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.down_proj = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.self_attn = LlamaAttention(config)
        self.mlp = LlamaMLP(config)
        self.input_layernorm = LlamaRMSNorm(config.hidden_size, config.rms_norm_eps)
        self.post_attention_layernorm = LlamaRMSNorm(config.hidden_size, config.rms_norm_eps)

    def forward(self, hidden_states, cos, sin, attention_mask):
        residual = hidden_states
        hidden_states = self.self_attn(self.input_layernorm(hidden_states), cos, sin, attention_mask)
        hidden_states = residual + hidden_states
        residual = hidden_states
        return residual + self.mlp(self.post_attention_layernorm(hidden_states))


class LlamaPreTrainedModel(nn.Module):
    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            n = module.weight.numel()
            vals = torch.sin(torch.arange(n, dtype=torch.float32) * 0.71 + module.weight.shape[0]) * 0.2
            module.weight.data.copy_(vals.view_as(module.weight))
            if isinstance(module, nn.Embedding) and module.padding_idx is not None:
                module.weight.data[module.padding_idx].zero_()


class LlamaForCausalLM(LlamaPreTrainedModel):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size, config.pad_token_id)
        self.layers = nn.ModuleList([LlamaDecoderLayer(config) for _ in range(config.num_hidden_layers)])
        self.norm = LlamaRMSNorm(config.hidden_size, config.rms_norm_eps)
        head_dim = config.hidden_size // config.num_attention_heads
        self.rotary_emb = LlamaRotaryEmbedding(head_dim, config.max_position_embeddings, config.rope_theta)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.apply(self._init_weights)

    def _prepare_4d_causal_attention_mask(self, attention_mask, seq_len, dtype):
        min_dtype = torch.finfo(dtype).min
        causal = torch.full((seq_len, seq_len), fill_value=min_dtype, dtype=dtype)
        causal = torch.triu(causal, diagonal=1)
        causal = causal[None, None, :, :].expand(attention_mask.shape[0], 1, -1, -1).clone()
        padding_mask = causal + attention_mask[:, None, None, :]
        padding_mask = padding_mask == 0
        causal = causal.masked_fill(padding_mask, min_dtype)
        return causal

    def forward(self, input_ids, attention_mask=None, labels=None):
        bsz, seq_len = input_ids.shape
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        hidden_states = self.embed_tokens(input_ids)
        cos, sin = self.rotary_emb(position_ids)
        mask = self._prepare_4d_causal_attention_mask(attention_mask, seq_len, hidden_states.dtype)
        for layer in self.layers:
            hidden_states = layer(hidden_states, cos, sin, mask)
        logits = self.lm_head(self.norm(hidden_states)).float()
        loss = None
        if labels is not None:
            shift_logits = logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = F.cross_entropy(shift_logits.view(-1, self.config.vocab_size), shift_labels.view(-1), ignore_index=-100)
        return loss, logits


config = LlamaConfig()
model = LlamaForCausalLM(config)
print(config)
print("mask buffers in state_dict:", [k for k in model.state_dict() if "cached" in k or "inv_freq" in k])
print("buffers:", [n for n, _ in model.named_buffers()])
input_ids = torch.tensor([[5, 9, 13, 2, 7, 21], [0, 0, 3, 8, 11, 4]])
attention_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1]])
labels = input_ids.masked_fill(attention_mask == 0, -100)
mask = model._prepare_4d_causal_attention_mask(attention_mask, 6, torch.float32)
print("mask shape", tuple(mask.shape), (mask == 0).int()[1, 0])
loss, logits = model(input_ids, attention_mask, labels)
print("logits", tuple(logits.shape), logits.dtype)
print(f"loss {loss.item():.5f}")
print(torch.round(logits[0, -1, :8], decimals=4))
loss.backward()
for name, p in list(model.named_parameters())[:6]:
    print(name, tuple(p.shape), f"{p.grad.norm().item():.5f}")
print("pad embedding grad zero:", bool((model.embed_tokens.weight.grad[0] == 0).all()))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
for step in range(6):
    opt.zero_grad()
    loss, _ = model(input_ids, attention_mask, labels)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
