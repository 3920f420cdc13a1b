# A GPT-style character LM built from nn.TransformerEncoder (pre-LN, gelu) with a causal mask:
# tied input/output embeddings, learned positions, is_causal=True, a short AdamW training loop
# with a LambdaLR linear warmup, then greedy generation with a growing context window.
import torch
import torch.nn as nn
import torch.nn.functional as F

text = "hello world, hello tensors. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text])
V, D, T = len(chars), 16, 8


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Embedding(T, D)
        layer = nn.TransformerEncoderLayer(D, nhead=4, dim_feedforward=4 * D, dropout=0.0,
                                           activation="gelu", batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(D),
                                            enable_nested_tensor=False)
        self.head = nn.Linear(D, V, bias=False)
        self.head.weight = self.tok.weight                      # weight tying
        self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(T), persistent=False)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t))
        x = self.blocks(x, mask=self.causal[:t, :t], is_causal=True)
        logits = self.head(x)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, V), targets.view(-1))
        return logits, loss


model = TinyGPT()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        if n.endswith("norm1.weight") or n.endswith("norm2.weight") or n == "blocks.norm.weight":
            p.fill_(1.0)
        else:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view(p.shape) * 0.2)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.state_dict().values()))
print(list(model.state_dict())[:5], "causal" in model.state_dict(), model.head.weight is model.tok.weight)

decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                        lr=1e-2, betas=(0.9, 0.95))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 5))
starts = torch.arange(0, len(text) - T - 1, 3)
xb = torch.stack([data[s:s + T] for s in starts])
yb = torch.stack([data[s + 1:s + T + 1] for s in starts])
print(xb.shape, len(decay), len(no_decay))
for step in range(12):
    _, loss = model(xb, yb)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 4 == 0 or step == 11:
        print(step, f"{loss.item():.3f}", [f"{lr:.4f}" for lr in sched.get_last_lr()])

model.eval()
with torch.no_grad():
    logits_full, _ = model(xb[:1])
    logits_part, _ = model(xb[:1, :4])
    print(torch.allclose(logits_full[:, :4], logits_part, atol=1e-5))
    idx = torch.tensor([[stoi["h"]]])
    for _ in range(12):
        logits, _ = model(idx[:, -T:])
        idx = torch.cat([idx, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
print(repr("".join(chars[i] for i in idx[0].tolist())))
print(F.softmax(logits[0, -1], -1).topk(3).indices.tolist())
