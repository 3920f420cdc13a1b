# A tiny character-level causal LM (nanoGPT style) compiled with dynamic=True and fed
# prompts of growing length during greedy generation; torch._dynamo.mark_dynamic on the batch.
import torch
import torch.nn as nn
import torch.nn.functional as F

text = "hello world, hello torch"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text])
print("vocab", len(chars), data.shape)


class TinyLM(nn.Module):
    def __init__(self, vocab, d=12, block=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = (q @ k.transpose(-2, -1)) / k.shape[-1] ** 0.5
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        x = self.ln(x + att @ v)
        return self.head(x)


model = TinyLM(len(chars))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.3)
cmodel = torch.compile(model, dynamic=True)

block = 8
xb = torch.stack([data[i:i + block] for i in range(0, 16, 2)])
yb = torch.stack([data[i + 1:i + block + 1] for i in range(0, 16, 2)])
torch._dynamo.mark_dynamic(xb, 0)
opt = torch.optim.AdamW(model.parameters(), lr=0.03)
for step in range(20):
    logits = cmodel(xb)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), yb.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step} loss {loss.item():.3f}")

model.eval()
idx = torch.tensor([[stoi["h"]]])
with torch.no_grad():
    for _ in range(4):
        logits = cmodel(idx[:, -block:])
        nxt = logits[:, -1].argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, nxt], dim=1)
print("generated:", repr("".join(itos[i] for i in idx[0].tolist())))
print(idx.shape)
