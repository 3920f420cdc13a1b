# CLIP's symmetric contrastive loss: image/text projections, L2 normalisation with .norm(dim=-1, keepdim=True),
# a learnable logit_scale = log(1/0.07) clamped and exponentiated, (CE(logits) + CE(logits.T)) / 2,
# retrieval accuracy, and a few steps of AdamW with weight decay excluded for the logit scale.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCLIP(nn.Module):
    def __init__(self, img_dim=5, txt_vocab=7, embed=4):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(img_dim, 6), nn.GELU(), nn.Linear(6, embed, bias=False))
        self.token_embedding = nn.Embedding(txt_vocab, 6)
        self.ln_final = nn.LayerNorm(6)
        self.text_projection = nn.Parameter(torch.empty(6, embed))
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def encode_image(self, img):
        return self.visual(img)

    def encode_text(self, tokens):
        x = self.ln_final(self.token_embedding(tokens))
        eot = tokens.argmax(dim=-1)
        return x[torch.arange(x.shape[0]), eot] @ self.text_projection

    def forward(self, img, tokens):
        image_features = self.encode_image(img)
        text_features = self.encode_text(tokens)
        image_features = image_features / image_features.norm(dim=-1, keepdim=True)
        text_features = text_features / text_features.norm(dim=-1, keepdim=True)
        logit_scale = self.logit_scale.exp()
        logits_per_image = logit_scale * image_features @ text_features.t()
        return logits_per_image, logits_per_image.t()


model = TinyCLIP()
with torch.no_grad():
    for name, p in model.named_parameters():
        if name == "logit_scale":
            continue
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + len(name)).view(p.shape) * 0.6)
print([n for n, _ in model.named_parameters()])
print(f"{model.logit_scale.item():.5f}", f"{model.logit_scale.exp().item():.4f}")

images = torch.sin(torch.arange(20, dtype=torch.float32).view(4, 5) * 0.9)
tokens = torch.tensor([[1, 2, 6, 0], [3, 6, 0, 0], [2, 4, 5, 6], [6, 1, 0, 0]])

logits_per_image, logits_per_text = model(images, tokens)
print(logits_per_image.shape, logits_per_image.round(decimals=2))
ground_truth = torch.arange(len(images), dtype=torch.long)
loss = (F.cross_entropy(logits_per_image, ground_truth) + F.cross_entropy(logits_per_text, ground_truth)) / 2
print("loss", f"{loss.item():.4f}", type(loss.grad_fn).__name__)
probs = logits_per_image.softmax(dim=-1)
print(probs.sum(-1), probs.argmax(-1))

decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
print(len(decay), len(no_decay))
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.2}, {"params": no_decay, "weight_decay": 0.0}],
                        lr=0.05, betas=(0.9, 0.98), eps=1e-6)
for step in range(12):
    opt.zero_grad()
    li, lt = model(images, tokens)
    loss = (F.cross_entropy(li, ground_truth) + F.cross_entropy(lt, ground_truth)) / 2
    loss.backward()
    opt.step()
    with torch.no_grad():
        model.logit_scale.clamp_(0, math.log(100))
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", f"{model.logit_scale.item():.4f}")

with torch.no_grad():
    li, lt = model(images, tokens)
    i2t = (li.argmax(dim=1) == ground_truth).float().mean()
    t2i = (lt.argmax(dim=1) == ground_truth).float().mean()
    print("i2t", i2t.item(), "t2i", t2i.item())
    ranks = (li.argsort(dim=1, descending=True) == ground_truth[:, None]).nonzero()[:, 1]
    print("ranks", ranks)
    # open_clip style: labels from F.one_hot and soft targets
    soft = F.one_hot(ground_truth, 4).float() * 0.9 + 0.025
    print(f"{F.cross_entropy(li, soft).item():.4f}", f"{(-(soft * li.log_softmax(-1)).sum(-1).mean()).item():.4f}")
