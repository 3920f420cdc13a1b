# CLIP's text tower as in the reference model.py, scaled down: token + positional embeddings, a causal
# attention mask built with torch.empty().fill_(-inf).triu_(1), residual attention blocks with
# nn.MultiheadAttention(need_weights=False) and QuickGELU, ln_final, EOT pooling with argmax, then the
# symmetric InfoNCE loss against an image tower, and zero-shot classification with prompt ensembling.
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F


class QuickGELU(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(1.702 * x)


class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head, attn_mask=None):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(OrderedDict([("c_fc", nn.Linear(d_model, d_model * 4)), ("gelu", QuickGELU()),
                                              ("c_proj", nn.Linear(d_model * 4, d_model))]))
        self.ln_2 = nn.LayerNorm(d_model)
        self.attn_mask = attn_mask

    def attention(self, x):
        return self.attn(x, x, x, need_weights=False, attn_mask=self.attn_mask)[0]

    def forward(self, x):
        x = x + self.attention(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


ctx, width, vocab, embed = 5, 8, 10, 4


def build_attention_mask():
    mask = torch.empty(ctx, ctx)
    mask.fill_(float("-inf"))
    mask.triu_(1)
    return mask


class TextTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, width)
        self.positional_embedding = nn.Parameter(torch.empty(ctx, width))
        self.transformer = nn.Sequential(*[ResidualAttentionBlock(width, 2, build_attention_mask()) for _ in range(2)])
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Parameter(torch.empty(width, embed))

    def forward(self, text):
        x = self.token_embedding(text) + self.positional_embedding
        x = x.permute(1, 0, 2)
        x = self.transformer(x)
        x = x.permute(1, 0, 2)
        x = self.ln_final(x)
        return x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ self.text_projection


text_model = TextTower()
image_proj = nn.Linear(6, embed, bias=False)
with torch.no_grad():
    for i, p in enumerate(list(text_model.parameters()) + list(image_proj.parameters())):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.31 + i * 0.7).view(p.shape) * 0.4)
print(build_attention_mask())
print(len(text_model.state_dict()), list(text_model.state_dict())[:5])

EOT = vocab - 1
texts = torch.tensor([[1, 2, EOT, 0, 0], [3, 4, 5, EOT, 0], [6, EOT, 0, 0, 0]])
images = torch.cos(torch.arange(18, dtype=torch.float32).view(3, 6) * 0.8)
logit_scale = nn.Parameter(torch.tensor(2.6592))

t = F.normalize(text_model(texts), dim=-1)
v = F.normalize(image_proj(images), dim=-1)
logits = logit_scale.exp() * v @ t.t()
labels = torch.arange(3)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
print(logits.round(decimals=3), f"{loss.item():.4f}")
loss.backward()
print(f"{logit_scale.grad.item():.5f}", text_model.positional_embedding.grad.abs().sum() > 0)

opt = torch.optim.Adam(list(text_model.parameters()) + list(image_proj.parameters()) + [logit_scale], lr=0.01)
for step in range(10):
    t = F.normalize(text_model(texts), dim=-1)
    v = F.normalize(image_proj(images), dim=-1)
    logits = logit_scale.exp() * v @ t.t()
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}")

# zero-shot with prompt ensembling: average normalised text embeddings per class
with torch.no_grad():
    prompts = torch.tensor([[[1, 2, EOT, 0, 0], [2, 1, EOT, 0, 0]], [[3, 4, 5, EOT, 0], [4, 3, EOT, 0, 0]],
                            [[6, EOT, 0, 0, 0], [7, 6, EOT, 0, 0]]])
    class_emb = F.normalize(text_model(prompts.view(-1, ctx)), dim=-1).view(3, 2, embed).mean(dim=1)
    class_emb /= class_emb.norm(dim=-1, keepdim=True)
    probs = (100.0 * F.normalize(image_proj(images), dim=-1) @ class_emb.T).softmax(dim=-1)
    top_probs, top_labels = probs.topk(2, dim=-1)
    print(top_labels, top_probs.round(decimals=3))
