# Online triplet mining (batch-hard / batch-all, as in "In Defense of the Triplet Loss"): pairwise
# distances via torch.cdist and via the dot-product trick, label masks, hardest positive with max,
# hardest negative with min after masking, semi-hard with topk, trained for a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


def pairwise_distances(embeddings, squared=False):
    dot = embeddings @ embeddings.t()
    sq = torch.diag(dot)
    d = sq.unsqueeze(0) - 2.0 * dot + sq.unsqueeze(1)
    d = torch.clamp(d, min=0.0)
    if not squared:
        mask = (d == 0.0).float()
        d = d + mask * 1e-16
        d = torch.sqrt(d)
        d = d * (1.0 - mask)
    return d


def batch_hard_triplet_loss(labels, embeddings, margin):
    d = torch.cdist(embeddings, embeddings)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos_mask = same & ~eye
    hardest_pos = (d * pos_mask.float()).max(dim=1, keepdim=True)[0]
    max_d = d.max(dim=1, keepdim=True)[0]
    anchor_neg = d + max_d * same.float()
    hardest_neg, neg_idx = anchor_neg.min(dim=1, keepdim=True)
    loss = F.relu(hardest_pos - hardest_neg + margin)
    return loss.mean(), neg_idx.squeeze(1)


def batch_all_triplet_loss(labels, embeddings, margin):
    d = pairwise_distances(embeddings)
    tl = d.unsqueeze(2) - d.unsqueeze(1) + margin
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    valid = (same & ~eye).unsqueeze(2) & (~same).unsqueeze(1)
    tl = tl * valid.float()
    tl = tl.clamp(min=0)
    num_pos = (tl > 1e-16).float().sum()
    frac = num_pos / (valid.float().sum() + 1e-16)
    return tl.sum() / (num_pos + 1e-16), frac


labels = torch.tensor([0, 0, 1, 1, 2, 2, 0, 1])
x = torch.stack([torch.linspace(-1, 1, 5) * (i % 3 + 1) + torch.sin(torch.tensor(float(i))) for i in range(8)])
net = nn.Sequential(nn.Linear(5, 6), nn.Tanh(), nn.Linear(6, 3))
with torch.no_grad():
    for i, prm in enumerate(net.parameters()):
        prm.copy_(torch.sin(torch.arange(prm.numel(), dtype=torch.float32) * 1.1 + i * 0.5).view(prm.shape) * 0.7)

emb = net(x)
d1 = torch.cdist(emb, emb)
d2 = pairwise_distances(emb)
print(d1.shape, torch.allclose(d1, d2, atol=1e-5))
print(d1.round(decimals=3))
print(torch.cdist(emb, emb, p=1).round(decimals=3)[0])

loss_h, neg_idx = batch_hard_triplet_loss(labels, emb, margin=0.5)
loss_a, frac = batch_all_triplet_loss(labels, emb, margin=0.5)
print(f"{loss_h.item():.4f}", neg_idx, f"{loss_a.item():.4f}", f"{frac.item():.4f}")

# semi-hard negatives with topk on negated distances
same = labels[:, None] == labels[None, :]
neg_d = d1.detach().masked_fill(same, float("inf"))
vals, idx = torch.topk(-neg_d, k=2, dim=1)
print(idx, (-vals).round(decimals=3))
hard_neg = emb[neg_d.argmin(dim=1)]
hard_pos = emb[d1.detach().masked_fill(~same, -1.0).argmax(dim=1)]
print(F.triplet_margin_loss(emb, hard_pos, hard_neg, margin=0.5))

opt = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(20):
    opt.zero_grad()
    emb = net(x)
    loss, _ = batch_hard_triplet_loss(labels, emb, margin=0.5)
    loss2, _ = batch_all_triplet_loss(labels, emb, margin=0.5)
    (loss + loss2).backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}", f"{loss2.item():.4f}")

with torch.no_grad():
    emb = net(x)
    d = torch.cdist(emb, emb).fill_diagonal_(float("inf"))
    nn_label = labels[d.argmin(1)]
    print("recall@1", (nn_label == labels).float().mean().item())
