# Angular-margin metric-learning heads as face-recognition repos write them: ArcFace (additive angular
# margin with cos(theta + m), the easy_margin / th / mm fallback, one_hot via scatter_), CosFace (additive
# cosine margin) and SphereFace-style normalised logits, trained with CrossEntropyLoss for a few steps.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.50, easy_margin=False):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.FloatTensor(out_features, in_features))
        self.easy_margin = easy_margin
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(0, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(cosine > 0, phi, cosine)
        else:
            phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros(cosine.size())
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)
        return output * self.s


class AddMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.40):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        one_hot = F.one_hot(label, cosine.shape[1]).to(cosine.dtype)
        return self.s * (cosine - one_hot * self.m)

    def extra_repr(self):
        return f"in_features={self.weight.shape[1]}, out_features={self.weight.shape[0]}, s={self.s}, m={self.m}"


backbone = nn.Sequential(nn.Linear(4, 6), nn.PReLU(), nn.Linear(6, 3))
arc = ArcMarginProduct(3, 5, s=16.0, m=0.3)
cos_head = AddMarginProduct(3, 5, s=16.0, m=0.2)
print(cos_head, arc.th, arc.mm)
with torch.no_grad():
    for i, p in enumerate(list(backbone.parameters()) + [arc.weight, cos_head.weight]):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view(p.shape) * 0.7)

x = torch.cos(torch.arange(40, dtype=torch.float32).view(10, 4) * 0.37)
labels = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
feats = backbone(x)
logits = arc(feats, labels)
print(logits.shape, logits[:2].round(decimals=2))
print(cos_head(feats, labels)[:2].round(decimals=2))
easy = ArcMarginProduct(3, 5, s=16.0, m=0.3, easy_margin=True)
with torch.no_grad():
    easy.weight.copy_(arc.weight)
print(easy(feats, labels)[:2].round(decimals=2))

crit = nn.CrossEntropyLoss()
params = list(backbone.parameters()) + list(arc.parameters())
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-4)
for step in range(12):
    loss = crit(arc(backbone(x), labels), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}", f"{backbone[1].weight.item():.4f}")

with torch.no_grad():
    emb = F.normalize(backbone(x))
    centers = F.normalize(arc.weight)
    pred = (emb @ centers.T).argmax(1)
    print(pred, (pred == labels).sum().item())
    theta = torch.acos(torch.clamp(emb @ centers.T, -1 + 1e-7, 1 - 1e-7))
    print(torch.rad2deg(theta.gather(1, labels[:, None])).squeeze(1).round(decimals=1))
