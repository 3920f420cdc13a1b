# nanoGPT-style weight tying: lm_head.weight = wte.weight, parameter counting that dedupes shared
# tensors, state_dict containing both keys, gradient accumulation into the shared weight, padding_idx.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGPT(nn.Module):
    def __init__(self, vocab=11, dim=6, block=8):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab, dim, padding_idx=0),
            wpe=nn.Embedding(block, dim),
            ln_f=nn.LayerNorm(dim, bias=False),
        ))
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.transformer.wte.weight = self.lm_head.weight

    def get_num_params(self, non_embedding=True):
        n = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n -= self.transformer.wpe.weight.numel()
        return n

    def forward(self, idx, targets=None):
        pos = torch.arange(0, idx.size(1), dtype=torch.long)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss


model = TinyGPT()
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.21 + len(n)).view_as(p) * 0.5)
print(model)
print(model.lm_head.weight is model.transformer.wte.weight)
print([n for n, _ in model.named_parameters()])
print(list(model.state_dict().keys()))
print("number of parameters:", model.get_num_params(), model.get_num_params(False))
print(len(list(model.parameters())), len(list(model.named_parameters(remove_duplicate=False))))

idx = torch.tensor([[1, 4, 2, 7, 0, 0], [3, 3, 9, 10, 5, 0]])
targets = torch.tensor([[4, 2, 7, -1, -1, -1], [3, 9, 10, 5, -1, -1]])
logits, loss = model(idx, targets)
print(logits.shape, f"{loss.item():.4f}")
loss.backward()
g = model.lm_head.weight.grad
print(g is model.transformer.wte.weight.grad, g.shape)
print(g[0].round(decimals=4))
print(g.abs().sum(-1).round(decimals=3))

opt = torch.optim.AdamW(model.parameters(), lr=0.05, betas=(0.9, 0.95), weight_decay=0.1)
losses = []
for it in range(15):
    _, loss = model(idx, targets)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    losses.append(loss.item())
print(f"{losses[0]:.4f} -> {losses[-1]:.4f}", losses[-1] < losses[0])
print(model.lm_head.weight is model.transformer.wte.weight)

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
fresh = TinyGPT()
print(fresh.load_state_dict(sd))
print(torch.equal(fresh.lm_head.weight, model.lm_head.weight), fresh.lm_head.weight is fresh.transformer.wte.weight)
emb = nn.Embedding(5, 3, padding_idx=0)
print(emb, emb.weight[0])
emb(torch.tensor([0, 1, 0, 2])).sum().backward()
print(emb.weight.grad)
