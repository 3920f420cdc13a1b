# nanoGPT train.py run on a laptop (--device=cpu --dtype=float32 --compile=False): the dtype
# table, nullcontext vs autocast, tf32 switches, the GradScaler that is disabled for float32,
# estimate_loss under @torch.no_grad(), checkpointing and resuming with the '_orig_mod.' prefix.
import io
import math
from contextlib import nullcontext

import torch
import torch.nn as nn
from torch.nn import functional as F

device, dtype, compile, grad_clip = 'cpu', 'float32', False, 1.0
gradient_accumulation_steps, eval_iters, block_size = 2, 2, 4
torch.manual_seed(1337)
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
device_type = 'cuda' if 'cuda' in device else 'cpu'
ptdtype = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}[dtype]
ctx = nullcontext() if device_type == 'cpu' else torch.amp.autocast(device_type=device_type, dtype=ptdtype)
print(device_type, ptdtype, type(ctx).__name__, torch.backends.cuda.matmul.allow_tf32)
print(torch.cuda.is_available() and torch.cuda.is_bf16_supported(), torch.backends.mps.is_available())

data = torch.tensor([(3 * i + i // 5) % 7 for i in range(60)], dtype=torch.long)
train_data, val_data = data[:50], data[50:]
offsets = {'train': [0, 7, 13, 21, 30, 41], 'val': [0, 3, 5, 1, 2, 4]}
calls = {'train': 0, 'val': 0}


def get_batch(split):
    d = train_data if split == 'train' else val_data
    start = calls[split]; calls[split] += 2
    ix = torch.tensor([offsets[split][(start + j) % 6] for j in range(2)])
    x = torch.stack([d[i:i + block_size] for i in ix])
    y = torch.stack([d[i + 1:i + 1 + block_size] for i in ix])
    if device_type == 'cuda':
        x, y = x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)
    else:
        x, y = x.to(device), y.to(device)
    return x, y


class TinyLM(nn.Module):
    def __init__(self, vocab_size=7, n_embd=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size + 4, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets=None):
        pos = torch.arange(0, idx.size(1), dtype=torch.long, device=idx.device)
        logits = self.lm_head(torch.tanh(self.wte(idx) + self.wpe(pos)))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

    def crop_block_size(self, block_size):
        self.wpe.weight = nn.Parameter(self.wpe.weight[:block_size])


model = TinyLM()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view(p.shape) * 0.5)
model.crop_block_size(block_size)
print(model.wpe, model.wpe.weight.shape, model.wpe.weight.is_leaf)
model.to(device)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
print(scaler.is_enabled())
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, betas=(0.9, 0.99), weight_decay=0.1)
if compile:
    model = torch.compile(model)


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ['train', 'val']:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with ctx:
                logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


best_val_loss = 1e9
X, Y = get_batch('train')
for iter_num in range(4):
    lr = 1e-2 * 0.5 * (1 + math.cos(math.pi * iter_num / 4))
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr
    if iter_num % 2 == 0:
        losses = estimate_loss()
        print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
        if losses['val'] < best_val_loss:
            best_val_loss = losses['val']
    for micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits, loss = model(X, Y)
            loss = loss / gradient_accumulation_steps
        X, Y = get_batch('train')
        scaler.scale(loss).backward()
    if grad_clip != 0.0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    lossf = loss.item() * gradient_accumulation_steps
    print(f"iter {iter_num}: loss {lossf:.4f}")
print(best_val_loss, type(best_val_loss).__name__, scaler.get_scale(), scaler.state_dict())

checkpoint = {'model': {'_orig_mod.' + k: v for k, v in model.state_dict().items()},
              'optimizer': optimizer.state_dict(), 'iter_num': 4, 'best_val_loss': best_val_loss}
buf = io.BytesIO()
torch.save(checkpoint, buf)
buf.seek(0)
checkpoint = torch.load(buf, map_location=device)
state_dict = checkpoint['model']
unwanted_prefix = '_orig_mod.'
for k, v in list(state_dict.items()):
    if k.startswith(unwanted_prefix):
        state_dict[k[len(unwanted_prefix):]] = state_dict.pop(k)
fresh = TinyLM()
fresh.crop_block_size(block_size)
print(fresh.load_state_dict(state_dict))
opt2 = torch.optim.AdamW(fresh.parameters(), lr=1e-2)
opt2.load_state_dict(checkpoint['optimizer'])
print(checkpoint['iter_num'], checkpoint['best_val_loss'], opt2.state_dict()['state'][0]['step'])
print(torch.equal(fresh.lm_head.weight, model.lm_head.weight))
