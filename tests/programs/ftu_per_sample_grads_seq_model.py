# Per-sample gradients (torch.func tutorial recipe) for a sequence classifier with Embedding
# (padding_idx), LSTM, self-attention and LayerNorm, as DP text models do: vmap(grad(loss)) with
# in_dims=(None, 0, 0), compared against a loop, with per-sample clipping and aggregation.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


class SeqClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.lstm = nn.LSTM(4, 5, batch_first=True)
        self.attn = nn.MultiheadAttention(5, 1, batch_first=True)
        self.ln = nn.LayerNorm(5)
        self.head = nn.Linear(5, 2)

    def forward(self, tokens):
        h, _ = self.lstm(self.emb(tokens))
        a, _ = self.attn(h, h, h, need_weights=False)
        return self.head(self.ln(a + h).mean(1))


model = SeqClassifier()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view(p.shape) * 0.3)

tokens = (torch.arange(4 * 6).view(4, 6) * 3) % 10
labels = torch.tensor([0, 1, 1, 0])
params = {k: v.detach() for k, v in model.named_parameters()}
print(list(params))


def loss_fn(params, tokens, label):
    logits = functional_call(model, params, (tokens.unsqueeze(0),))
    return F.cross_entropy(logits, label.unsqueeze(0))


per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, tokens, labels)
for name, g in per_sample.items():
    print(f"{name:24s} {tuple(g.shape)}")

print("padding row gets no gradient:", per_sample["emb.weight"][:, 0].abs().sum().item())

ok = True
for i in range(len(tokens)):
    model.zero_grad()
    F.cross_entropy(model(tokens[i:i + 1]), labels[i:i + 1]).backward()
    for name, p in model.named_parameters():
        ok &= torch.allclose(p.grad, per_sample[name][i], atol=1e-5)
print("matches loop:", ok)

# clip each example's gradient to norm C, then average (DP-SGD without the noise)
C = 0.05
norms = torch.stack([g.flatten(1).norm(dim=1) for g in per_sample.values()]).norm(dim=0)
factor = (C / (norms + 1e-6)).clamp(max=1.0)
clipped = {k: (g * factor.view(-1, *[1] * (g.dim() - 1))).mean(0) for k, g in per_sample.items()}
print("per-sample norms:", norms.round(decimals=4))
print("clip factors <= 1:", bool((factor <= 1).all()), "clipped:", int((factor < 1).sum()))
total = sum(g.pow(2).sum() for g in clipped.values()).sqrt()
print("aggregated norm <= C:", total.item() <= C)

with torch.no_grad():
    for name, p in model.named_parameters():
        p -= 1.0 * clipped[name]
after = F.cross_entropy(model(tokens), labels)
print(f"loss after one DP step: {after.item():.4f}")
