# nanoGPT model.py in miniature: ModuleDict transformer, weight tying wte <-> lm_head,
# self.apply(self._init_weights) (made deterministic here), get_num_params,
# configure_optimizers splitting decay / no-decay by p.dim(), AdamW steps, generate() with top-k.
import inspect
import math

import torch
import torch.nn as nn
from torch.nn import functional as F


class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)


class Block(nn.Module):
    def __init__(self, n_embd, bias):
        super().__init__()
        self.ln_1 = LayerNorm(n_embd, bias=bias)
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=bias)

    def forward(self, x):
        return x + self.c_proj(self.gelu(self.c_fc(self.ln_1(x))))


class GPT(nn.Module):
    def __init__(self, vocab_size=11, block_size=6, n_embd=8, n_layer=2, bias=False):
        super().__init__()
        self.block_size = block_size
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd),
            wpe=nn.Embedding(block_size, n_embd),
            drop=nn.Dropout(0.0),
            h=nn.ModuleList([Block(n_embd, bias) for _ in range(n_layer)]),
            ln_f=LayerNorm(n_embd, bias=bias),
        ))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith('c_proj.weight'):
                with torch.no_grad():
                    p.mul_(1 / math.sqrt(2 * n_layer))
        print("number of parameters: %.2fK" % (self.get_num_params() / 1e3,))

    def get_num_params(self, non_embedding=True):
        n_params = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n_params -= self.transformer.wpe.weight.numel()
        return n_params

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            w = module.weight
            with torch.no_grad():
                w.copy_(0.2 * torch.sin(torch.arange(w.numel(), dtype=torch.float32) * 0.7).view(w.shape))
            if isinstance(module, nn.Linear) and module.bias is not None:
                torch.nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        assert t <= self.block_size, f"Cannot forward sequence of length {t}, block size is only {self.block_size}"
        pos = torch.arange(0, t, dtype=torch.long)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        param_dict = {pn: p for pn, p in self.named_parameters()}
        param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [{'params': decay_params, 'weight_decay': weight_decay},
                        {'params': nodecay_params, 'weight_decay': 0.0}]
        num_decay_params = sum(p.numel() for p in decay_params)
        num_nodecay_params = sum(p.numel() for p in nodecay_params)
        print(f"num decayed parameter tensors: {len(decay_params)}, with {num_decay_params:,} parameters")
        print(f"num non-decayed parameter tensors: {len(nodecay_params)}, with {num_nodecay_params:,} parameters")
        fused_available = 'fused' in inspect.signature(torch.optim.AdamW).parameters
        print(f"using fused AdamW: {fused_available and False}", fused_available)
        return torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.block_size else idx[:, -self.block_size:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float('Inf')
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.argmax(probs, dim=-1, keepdim=True)  # greedy instead of multinomial
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


model = GPT()
print(model.transformer.wte.weight is model.lm_head.weight, len(list(model.parameters())), len(model.state_dict()))
print(model.get_num_params(False), sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_parameters()][:4], model.transformer.h[0].c_proj.weight[0, :3])
optimizer = model.configure_optimizers(weight_decay=1e-1, learning_rate=6e-3, betas=(0.9, 0.95))
print(optimizer)
print([len(g['params']) for g in optimizer.param_groups], optimizer.defaults['eps'])

x = torch.tensor([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
y = torch.tensor([[2, 3, 4, 5, 6, 7], [5, 4, 3, 2, 1, -1]])
for it in range(5):
    lr = 6e-3 * 0.5 * (1.0 + math.cos(math.pi * it / 5))
    for param_group in optimizer.param_groups:
        param_group['lr'] = lr
    logits, loss = model(x, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f}, lr {lr:.2e}, norm {norm:.4f}")
print(logits.shape, model.lm_head.weight.grad is model.transformer.wte.weight.grad)
print(len(optimizer.state), sorted(optimizer.state[model.lm_head.weight].keys()))
print(optimizer.state[model.lm_head.weight]['step'])
model.eval()
out = model.generate(torch.tensor([[1, 2]]), max_new_tokens=7, top_k=3)
print(out, out.dtype, out.shape)
logits, loss = model(torch.tensor([[3, 4]]))
print(logits.shape, loss)
try:
    model(torch.zeros((1, 7), dtype=torch.long))
except AssertionError as e:
    print('AssertionError', e)
