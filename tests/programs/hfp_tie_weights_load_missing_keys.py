# GPT-2-style model with tied lm_head/wte (tie_weights), num_parameters(exclude_embeddings),
# non-persistent causal-mask buffer, and loading an older checkpoint with load_state_dict(strict=False)
# that reports missing/unexpected keys, as PreTrainedModel.from_pretrained does.
import io
from dataclasses import dataclass, asdict
import torch
import torch.nn as nn


@dataclass
class GPT2Config:
    vocab_size: int = 20
    n_positions: int = 8
    n_embd: int = 12
    n_layer: int = 2
    n_head: int = 3
    layer_norm_epsilon: float = 1e-5


class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class GPT2Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        n = config.n_positions
        self.register_buffer("bias", torch.tril(torch.ones((n, n), dtype=torch.bool)).view(1, 1, n, n), persistent=False)
        self.register_buffer("masked_bias", torch.tensor(-1e4), persistent=False)
        self.n_head = config.n_head
        self.head_dim = config.n_embd // config.n_head
        self.c_attn = Conv1D(3 * config.n_embd, config.n_embd)
        self.c_proj = Conv1D(config.n_embd, config.n_embd)

    def _split_heads(self, t):
        return t.view(t.size()[:-1] + (self.n_head, self.head_dim)).permute(0, 2, 1, 3)

    def forward(self, x):
        q, k, v = self.c_attn(x).split(x.size(-1), dim=2)
        q, k, v = self._split_heads(q), self._split_heads(k), self._split_heads(v)
        w = torch.matmul(q, k.transpose(-1, -2)) / torch.full([], v.size(-1) ** 0.5, dtype=q.dtype)
        ql, kl = q.size(-2), k.size(-2)
        causal_mask = self.bias[:, :, kl - ql : kl, :kl]
        mask_value = torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype)
        w = torch.where(causal_mask, w.to(w.dtype), mask_value)
        w = nn.functional.softmax(w, dim=-1)
        out = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous()
        return self.c_proj(out.view(out.size()[:-2] + (-1,)))


class GPT2Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.attn = GPT2Attention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.mlp = nn.Sequential(Conv1D(4 * config.n_embd, config.n_embd), nn.GELU(approximate="tanh"),
                                 Conv1D(config.n_embd, 4 * config.n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2LMHeadModel(nn.Module):
    _tied_weights_keys = ["lm_head.weight"]

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.n_positions, config.n_embd)
        self.h = nn.ModuleList([GPT2Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.apply(self._init_weights)
        self.tie_weights()

    def _init_weights(self, module):
        if isinstance(module, (nn.Embedding, Conv1D, nn.Linear)):
            w = module.weight
            with torch.no_grad():
                w.copy_(torch.cos(torch.arange(w.numel(), dtype=torch.float32) * 0.3).view_as(w) * 0.05)

    def get_input_embeddings(self):
        return self.wte

    def get_output_embeddings(self):
        return self.lm_head

    def tie_weights(self):
        self.get_output_embeddings().weight = self.get_input_embeddings().weight

    def num_parameters(self, only_trainable=False, exclude_embeddings=False):
        if exclude_embeddings:
            emb = [f"{n}.weight" for n, m in self.named_modules() if isinstance(m, nn.Embedding)]
            params = [p for n, p in self.named_parameters() if n not in emb]
        else:
            params = list(self.parameters())
        return sum(p.numel() for p in params if p.requires_grad or not only_trainable)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.size(-1), dtype=torch.long).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


config = GPT2Config()
model = GPT2LMHeadModel(config)
print(asdict(config))
print("tied:", model.lm_head.weight is model.wte.weight, model.lm_head.weight.data_ptr() == model.wte.weight.data_ptr())
print("num_parameters:", model.num_parameters(), "non-embedding:", model.num_parameters(exclude_embeddings=True))
print("named_parameters has lm_head:", any(n.startswith("lm_head") for n, _ in model.named_parameters()))
sd = model.state_dict()
print("state_dict keys:", len(sd), [k for k in sd if "attn" in k and "h.0" in k])
print("lm_head.weight in sd:", "lm_head.weight" in sd, "h.0.attn.bias in sd:", "h.0.attn.bias" in sd)

# an "old" checkpoint: drop lm_head and wpe, add the legacy attn.bias/masked_bias buffers
old = {k: v.clone() for k, v in sd.items() if k not in ("lm_head.weight", "wpe.weight")}
old["h.0.attn.masked_bias"] = torch.tensor(-1e4)
old["h.1.attn.bias"] = torch.tril(torch.ones(1, 1, 8, 8))
buf = io.BytesIO()
torch.save(old, buf)
buf.seek(0)
loaded = torch.load(buf)
fresh = GPT2LMHeadModel(config)
with torch.no_grad():
    fresh.wte.weight.mul_(2.0)
result = fresh.load_state_dict(loaded, strict=False)
print(type(result).__name__)
print("missing:", result.missing_keys)
print("unexpected:", sorted(result.unexpected_keys))
print("still tied after load:", fresh.lm_head.weight is fresh.wte.weight)
print(torch.equal(fresh.lm_head.weight, model.wte.weight))
try:
    fresh.load_state_dict(loaded)
except RuntimeError as e:
    print(e)
ids = torch.tensor([[1, 4, 7, 2, 9]])
logits = fresh(ids)
print(logits.shape, torch.round(logits[0, -1, :6], decimals=5))
logits.sum().backward()
print("grad shared:", fresh.wte.weight.grad is fresh.lm_head.weight.grad, f"{fresh.wte.weight.grad.abs().sum().item():.4f}")
