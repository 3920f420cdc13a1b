# Pair-based and proxy-based deep metric learning losses (pytorch-metric-learning style written by hand):
# all pairs via torch.combinations, positive/negative pair masks, multi-similarity-like soft weighting
# with logsumexp, Proxy-NCA / Proxy-Anchor with F.softplus-free log-sum-exp, and lifted structure.
import torch
import torch.nn as nn
import torch.nn.functional as F

emb = torch.stack([torch.cos(torch.arange(4.0) * (i + 1) * 0.4) + 0.1 * i for i in range(6)])
emb.requires_grad_(True)
labels = torch.tensor([0, 0, 1, 1, 2, 2])

pairs = torch.combinations(torch.arange(6), r=2)
print(pairs.shape, pairs[:4])
same = labels[pairs[:, 0]] == labels[pairs[:, 1]]
print(same.nonzero().squeeze(1), (~same).sum())
print(torch.triu_indices(3, 3, offset=1), torch.cartesian_prod(torch.arange(2), torch.arange(3)).shape)

# contrastive pair loss over all pairs
z = F.normalize(emb, dim=1)
d = (z[pairs[:, 0]] - z[pairs[:, 1]]).norm(dim=1)
pos_loss = d[same].pow(2)
neg_loss = F.relu(0.8 - d[~same]).pow(2)
contrastive = torch.cat([pos_loss, neg_loss]).mean()
print("contrastive", f"{contrastive.item():.4f}")

# multi-similarity style
sim = z @ z.t()
pos_mask = (labels[:, None] == labels[None]).float() - torch.eye(6)
neg_mask = (labels[:, None] != labels[None]).float()
alpha, beta, base = 2.0, 50.0, 0.5
pos_term = torch.log1p((torch.exp(-alpha * (sim - base)) * pos_mask).sum(1)) / alpha
neg_term = torch.log1p((torch.exp(beta * (sim - base)) * neg_mask).sum(1)) / beta
ms = (pos_term + neg_term).mean()
print("ms", f"{ms.item():.4f}", pos_term.round(decimals=3))

# lifted structure with logsumexp over masked negatives
neg_logits = (1.0 - sim).masked_fill(neg_mask == 0, float("-inf"))
lse = torch.logsumexp(neg_logits, dim=1)
ls = F.relu(lse[pairs[same][:, 0]] + lse[pairs[same][:, 1]] + (1 - sim[pairs[same][:, 0], pairs[same][:, 1]])).pow(2).mean() / 2
print("lifted", f"{ls.item():.4f}")

# Proxy-Anchor
proxies = nn.Parameter(torch.sin(torch.arange(12, dtype=torch.float32).view(3, 4)))
def proxy_anchor(x, y, proxies, mrg=0.1, alpha=32):
    cos = F.linear(F.normalize(x), F.normalize(proxies))
    P_one_hot = F.one_hot(y, num_classes=proxies.shape[0]).float()
    N_one_hot = 1 - P_one_hot
    pos_exp = torch.exp(-alpha * (cos - mrg))
    neg_exp = torch.exp(alpha * (cos + mrg))
    with_pos = torch.nonzero(P_one_hot.sum(dim=0) != 0).squeeze(dim=1)
    num_valid = len(with_pos)
    P_sim_sum = torch.where(P_one_hot == 1, pos_exp, torch.zeros_like(pos_exp)).sum(dim=0)
    N_sim_sum = torch.where(N_one_hot == 1, neg_exp, torch.zeros_like(neg_exp)).sum(dim=0)
    pos_term = torch.log(1 + P_sim_sum).sum() / num_valid
    neg_term = torch.log(1 + N_sim_sum).sum() / proxies.shape[0]
    return pos_term + neg_term

pa = proxy_anchor(emb, labels, proxies)
print("proxy-anchor", f"{pa.item():.4f}")
# Proxy-NCA
pn = F.cross_entropy(-torch.cdist(F.normalize(emb), F.normalize(proxies)).pow(2) * 3.0, labels)
print("proxy-nca", f"{pn.item():.4f}")

total = contrastive + ms + ls + pa + pn
total.backward()
print(emb.grad.round(decimals=4))
print(proxies.grad.round(decimals=4))

opt = torch.optim.Adam([emb, proxies], lr=0.05)
for step in range(10):
    opt.zero_grad()
    loss = proxy_anchor(emb, labels, proxies) + F.cross_entropy(-torch.cdist(F.normalize(emb), F.normalize(proxies)).pow(2) * 3.0, labels)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}")
with torch.no_grad():
    print(F.linear(F.normalize(emb), F.normalize(proxies)).argmax(1), labels)
