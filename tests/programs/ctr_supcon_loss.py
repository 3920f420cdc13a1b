# Supervised contrastive loss (Khosla et al., the HobbitLong/SupContrast SupConLoss): features of shape
# [bsz, n_views, dim], torch.unbind + cat for contrast_mode 'all'/'one', logits_mask via torch.scatter,
# max-subtraction for stability, log-prob with the exp-sum, and the mean over positives.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.07, contrast_mode="all", base_temperature=0.07):
        super().__init__()
        self.temperature = temperature
        self.contrast_mode = contrast_mode
        self.base_temperature = base_temperature

    def forward(self, features, labels=None, mask=None):
        if len(features.shape) < 3:
            raise ValueError("`features` needs to be [bsz, n_views, ...]")
        batch_size = features.shape[0]
        if labels is None and mask is None:
            mask = torch.eye(batch_size, dtype=torch.float32)
        elif labels is not None:
            labels = labels.contiguous().view(-1, 1)
            mask = torch.eq(labels, labels.T).float()
        contrast_count = features.shape[1]
        contrast_feature = torch.cat(torch.unbind(features, dim=1), dim=0)
        if self.contrast_mode == "one":
            anchor_feature = features[:, 0]
            anchor_count = 1
        else:
            anchor_feature = contrast_feature
            anchor_count = contrast_count
        anchor_dot_contrast = torch.div(torch.matmul(anchor_feature, contrast_feature.T), self.temperature)
        logits_max, _ = torch.max(anchor_dot_contrast, dim=1, keepdim=True)
        logits = anchor_dot_contrast - logits_max.detach()
        mask = mask.repeat(anchor_count, contrast_count)
        logits_mask = torch.scatter(torch.ones_like(mask), 1,
                                    torch.arange(batch_size * anchor_count).view(-1, 1), 0)
        mask = mask * logits_mask
        exp_logits = torch.exp(logits) * logits_mask
        log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
        mask_pos_pairs = mask.sum(1)
        mask_pos_pairs = torch.where(mask_pos_pairs < 1e-6, 1, mask_pos_pairs)
        mean_log_prob_pos = (mask * log_prob).sum(1) / mask_pos_pairs
        loss = -(self.temperature / self.base_temperature) * mean_log_prob_pos
        return loss.view(anchor_count, batch_size).mean()


head = nn.Sequential(nn.Linear(4, 8), nn.ReLU(inplace=True), nn.Linear(8, 3))
with torch.no_grad():
    for i, p in enumerate(head.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 - i).view(p.shape) * 0.5)

x = torch.sin(torch.arange(24, dtype=torch.float32).view(6, 4) * 0.5)
aug = torch.cos(torch.arange(24, dtype=torch.float32).view(6, 4) * 0.3) * 0.2
labels = torch.tensor([0, 1, 0, 2, 1, 2])

f1 = F.normalize(head(x), dim=1)
f2 = F.normalize(head(x + aug), dim=1)
features = torch.cat([f1.unsqueeze(1), f2.unsqueeze(1)], dim=1)
print(features.shape)
crit = SupConLoss(temperature=0.1, base_temperature=0.1)
print("supcon", f"{crit(features, labels).item():.4f}")
print("simclr", f"{crit(features).item():.4f}")
print("one", f"{SupConLoss(contrast_mode='one')(features, labels).item():.4f}")
m = torch.ones(6, 6)
print(torch.scatter(torch.ones(4, 4), 1, torch.arange(4).view(-1, 1), 0))
try:
    crit(f1, labels)
except ValueError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD(head.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
for step in range(15):
    f1 = F.normalize(head(x), dim=1)
    f2 = F.normalize(head(x + aug), dim=1)
    loss = crit(torch.stack([f1, f2], dim=1), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}")

# linear probe-style check: class centroids and cosine scores
with torch.no_grad():
    z = F.normalize(head(x), dim=1)
    centroids = torch.stack([z[labels == c].mean(0) for c in range(3)])
    centroids = F.normalize(centroids, dim=1)
    scores = z @ centroids.T
    print(scores.argmax(1), labels)
    print(torch.unique(labels, return_counts=True))
