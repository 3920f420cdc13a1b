# A LLaMA-style attention layer with grouped-query attention (repeat_kv via expand + reshape,
# checked against repeat_interleave) and a KV cache grown with torch.cat during greedy decoding;
# the cached logits must equal a full forward pass over the whole sequence.
import torch
import torch.nn as nn
import torch.nn.functional as F


def repeat_kv(hidden_states, n_rep):
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


class Attention(nn.Module):
    def __init__(self, dim=8, n_heads=4, n_kv_heads=2):
        super().__init__()
        self.n_heads, self.n_kv_heads = n_heads, n_kv_heads
        self.head_dim = dim // n_heads
        self.n_rep = n_heads // n_kv_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)

    def forward(self, x, past_kv=None):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        xk = self.wk(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim).transpose(1, 2)
        xv = self.wv(x).view(bsz, seqlen, self.n_kv_heads, self.head_dim).transpose(1, 2)
        if past_kv is not None:
            xk = torch.cat([past_kv[0], xk], dim=2)
            xv = torch.cat([past_kv[1], xv], dim=2)
        present = (xk, xv)
        keys, values = repeat_kv(xk, self.n_rep), repeat_kv(xv, self.n_rep)
        out = F.scaled_dot_product_attention(xq, keys, values, is_causal=past_kv is None and seqlen > 1)
        out = out.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(out), present


class TinyLM(nn.Module):
    def __init__(self, vocab=10, dim=8):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.attn = Attention(dim)
        self.norm = nn.RMSNorm(dim, eps=1e-5)
        self.output = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens, past_kv=None):
        h = self.tok_embeddings(tokens)
        a, present = self.attn(h, past_kv)
        return self.output(self.norm(h + a)), present


model = TinyLM()
for i, (name, p) in enumerate(model.named_parameters()):
    with torch.no_grad():
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.37 + 0.11 * i)).view(p.shape))
print(model)
print(sum(p.numel() for p in model.parameters()), model.attn.n_rep, model.attn.wk.weight.shape)

kv = torch.arange(2 * 2 * 3 * 2, dtype=torch.float32).view(2, 2, 3, 2)
rep = repeat_kv(kv, 2)
print(rep.shape, rep.is_contiguous(), torch.equal(rep, torch.repeat_interleave(kv, 2, dim=1)))
print(rep[0, :, 0], kv[:, :, None].expand(2, 2, 2, 3, 2).stride())
print(torch.equal(torch.repeat_interleave(kv, 2, dim=1), kv.repeat(1, 2, 1, 1)))

# greedy decoding with a KV cache
prompt = torch.tensor([[1, 4, 2]])
model.eval()
with torch.no_grad():
    logits, past = model(prompt)
    print(logits.shape, past[0].shape, past[1].shape)
    next_token = logits[:, -1, :].argmax(dim=-1, keepdim=True)
    generated = torch.cat([prompt, next_token], dim=1)
    for step in range(4):
        logits, past = model(next_token, past)
        next_token = torch.argmax(logits[:, -1, :], dim=-1).unsqueeze(-1)
        generated = torch.cat((generated, next_token), dim=-1)
        print(step, past[0].shape, next_token.tolist(), logits[0, -1, :3])
print(generated, generated.dtype)

# collecting per-step logits into a list-like tensor that starts out empty
step_logits = torch.tensor([])
tokens = prompt
with torch.no_grad():
    lg, pkv = model(tokens)
    for _ in range(3):
        step_logits = torch.cat([step_logits, lg[:, -1, :]], dim=0)
        tok = lg[:, -1].argmax(-1, keepdim=True)
        tokens = torch.cat([tokens, tok], dim=1)
        lg, pkv = model(tok, pkv)
print(step_logits.shape, step_logits.argmax(-1), tokens)

# the same tokens through a full pass (no cache) give the same last logits
with torch.no_grad():
    full_logits, _ = model(generated[:, :-1])
print(torch.allclose(full_logits[:, -1], logits[:, -1], atol=1e-5), full_logits[0, -1, :3])

# batched prompts, greedy tokens and their log-probs
batch = torch.tensor([[1, 4, 2], [7, 7, 0]])
with torch.no_grad():
    logits, past = model(batch)
logprobs = F.log_softmax(logits[:, -1], dim=-1)
top = logprobs.topk(3, dim=-1)
print(top.values, top.indices, type(top).__name__)
print(logprobs.max(dim=-1), logprobs.argmax(-1, keepdim=True).shape)
print(torch.gather(logprobs, 1, top.indices[:, :1]).squeeze(1), [len(t) for t in past])

# training step through the cache-free path
model.train()
logits, _ = model(torch.tensor([[1, 4, 2, 5]]))
loss = F.cross_entropy(logits[:, :-1].reshape(-1, 10), torch.tensor([[4, 2, 5]]).reshape(-1))
loss.backward()
print(loss, model.attn.wk.weight.grad.shape, model.attn.wk.weight.grad.abs().sum())
try:
    torch.cat([past[0], torch.zeros(2, 2, 1, 3)], dim=2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    repeat_kv(kv, 3).view(2, 3, 3, 2)
except RuntimeError as e:
    print(type(e).__name__, e)
