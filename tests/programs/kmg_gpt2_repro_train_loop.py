# "Let's reproduce GPT-2 (124M)": GELU(approximate='tanh'), NANOGPT_SCALE_INIT flags, loading
# HF-style Conv1D weights with .t(), DataLoaderLite, gradient accumulation with loss.detach(),
# the warmup+cosine get_lr, top-k sampling with gather, hellaswag-style completion scoring.
import io
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

device = "cpu"
if torch.cuda.is_available():
    device = "cuda"
elif hasattr(torch.backends, "mps") and torch.backends.mps.is_available():
    device = "mps"
print(f"using device: {device}")
torch.manual_seed(1337)
torch.set_float32_matmul_precision('high')
print(torch.get_float32_matmul_precision())

x = torch.linspace(-3, 3, 7)
gelu = nn.GELU(approximate='tanh')
manual = 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
print(gelu, nn.GELU())
print(gelu(x))
print(torch.allclose(gelu(x), manual), (F.gelu(x) - gelu(x)).abs().max() < 1e-3, F.gelu(x, approximate='none')[:3])


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU(approximate='tanh')
        self.c_proj = nn.Linear(4 * n_embd, n_embd)
        self.c_proj.NANOGPT_SCALE_INIT = 1

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


mlp = MLP(4)
print(mlp)
print([hasattr(m, 'NANOGPT_SCALE_INIT') for m in mlp.modules()])
std = 0.02
if hasattr(mlp.c_proj, 'NANOGPT_SCALE_INIT'):
    std *= (2 * 12) ** -0.5
print(f"{std:.6f}")
torch.nn.init.normal_(mlp.c_fc.weight, mean=0.0, std=0.02)
print(mlp.c_fc.weight.shape, mlp.c_fc.weight.requires_grad)

# HF checkpoints store Conv1D weights transposed
sd = mlp.state_dict()
sd_hf = {k: (torch.arange(v.numel(), dtype=torch.float32).view(v.shape) / 100) for k, v in sd.items()}
sd_hf = {k: (v.t() if k.endswith('weight') else v) for k, v in sd_hf.items()}
transposed = ['c_fc.weight', 'c_proj.weight']
for k in sd_hf:
    if any(k.endswith(w) for w in transposed):
        assert sd_hf[k].shape[::-1] == sd[k].shape
        with torch.no_grad():
            sd[k].copy_(sd_hf[k].t())
    else:
        assert sd_hf[k].shape == sd[k].shape
        with torch.no_grad():
            sd[k].copy_(sd_hf[k])
print(mlp.c_proj.weight[:, :5], sd_hf['c_fc.weight'].shape, sd_hf['c_fc.weight'].is_contiguous())


class DataLoaderLite:
    def __init__(self, B, T, tokens):
        self.B, self.T = B, T
        self.tokens = torch.tensor(tokens)
        print(f"loaded {len(self.tokens)} tokens")
        print(f"1 epoch = {len(self.tokens) // (B * T)} batches")
        self.current_position = 0

    def next_batch(self):
        B, T = self.B, self.T
        buf = self.tokens[self.current_position: self.current_position + B * T + 1]
        x = (buf[:-1]).view(B, T)
        y = (buf[1:]).view(B, T)
        self.current_position += B * T
        if self.current_position + (B * T + 1) > len(self.tokens):
            self.current_position = 0
        return x, y


max_lr, min_lr, warmup_steps, max_steps = 6e-4, 6e-5, 2, 6
def get_lr(it):
    if it < warmup_steps:
        return max_lr * (it + 1) / warmup_steps
    if it > max_steps:
        return min_lr
    decay_ratio = (it - warmup_steps) / (max_steps - warmup_steps)
    assert 0 <= decay_ratio <= 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (max_lr - min_lr)


train_loader = DataLoaderLite(B=2, T=3, tokens=[i % 5 for i in range(40)])
model = nn.Sequential(nn.Embedding(5, 4), MLP(4), nn.Linear(4, 5))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.shape) * 0.5)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1, fused=False)
grad_accum_steps = 2
for step in range(max_steps):
    optimizer.zero_grad()
    loss_accum = 0.0
    for micro_step in range(grad_accum_steps):
        x, y = train_loader.next_batch()
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        loss = loss / grad_accum_steps
        loss_accum += loss.detach()
        loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    lr = get_lr(step)
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr
    optimizer.step()
    print(f"step {step:4d} | loss: {loss_accum.item():.6f} | lr {lr:.4e} | norm: {norm:.4f}")
print(type(loss_accum), loss_accum.requires_grad, norm.dtype, train_loader.current_position)

buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'step': step, 'val_loss': loss_accum.item()}, buf)
buf.seek(0)
checkpoint = torch.load(buf)
print(sorted(checkpoint.keys()), list(checkpoint['model'].keys())[:3], checkpoint['step'])

# sampling: top-k 3 then gather back the vocabulary ids
num_return_sequences = 2
tokens = torch.tensor([1, 2, 3], dtype=torch.long)
tokens = tokens.unsqueeze(0).repeat(num_return_sequences, 1)
sample_rng = torch.Generator(device=device)
sample_rng.manual_seed(42)
with torch.no_grad():
    logits = model(tokens)[:, -1, :]
    probs = F.softmax(logits, dim=-1)
    topk_probs, topk_indices = torch.topk(probs, 3, dim=-1)
    ix = torch.multinomial(topk_probs, 1, generator=sample_rng)
    xcol = torch.gather(topk_indices, -1, ix)
    print(tokens.shape, topk_probs, topk_indices, ix.shape, xcol.shape, xcol.dtype)
    print(torch.gather(topk_indices, -1, torch.zeros_like(ix)).view(-1), probs.argmax(-1))

# hellaswag: which of 4 completions has the lowest average loss over its mask
tokens = torch.tensor([[1, 2, 3, 4, 0], [1, 2, 0, 1, 0], [1, 2, 4, 4, 4], [1, 2, 3, 3, 0]])
mask = torch.tensor([[0, 0, 1, 1, 0], [0, 0, 1, 1, 0], [0, 0, 1, 1, 1], [0, 0, 1, 1, 0]])
with torch.no_grad():
    logits = model(tokens)
shift_logits = (logits[..., :-1, :]).contiguous()
shift_tokens = (tokens[..., 1:]).contiguous()
flat_shift_logits = shift_logits.view(-1, shift_logits.size(-1))
flat_shift_tokens = shift_tokens.view(-1)
shift_losses = F.cross_entropy(flat_shift_logits, flat_shift_tokens, reduction='none')
shift_losses = shift_losses.view(tokens.size(0), -1)
shift_mask = (mask[..., 1:]).contiguous()
masked_shift_losses = shift_losses * shift_mask
sum_loss = masked_shift_losses.sum(dim=1)
avg_loss = sum_loss / shift_mask.sum(dim=1)
print(shift_losses.shape, masked_shift_losses.dtype, avg_loss)
print(sum_loss.argmin().item(), avg_loss.argmin().item())
