# Prototypical networks (few-shot episodes: class prototypes as support means, negative squared
# Euclidean distances through torch.cdist as logits) and a MoCo-style momentum encoder with a
# queue of negatives: einsum logits, torch.no_grad momentum update, queue enqueue/dequeue.
# (SGD, not Adam: the last bias gets an exactly-zero gradient, translation invariance of distances.)
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

encoder = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 4))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i * 0.3).view(p.shape) * 0.6)

n_way, k_shot, n_query = 3, 2, 2
base = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
offs = torch.sin(torch.arange(n_way * (k_shot + n_query) * 3, dtype=torch.float32)).view(n_way, k_shot + n_query, 3) * 0.3
episode = base[:, None, :] + offs
support, query = episode[:, :k_shot], episode[:, k_shot:]
print(support.shape, query.shape)

opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
target = torch.arange(n_way).repeat_interleave(n_query)
print(target)
for step in range(10):
    z_s = encoder(support.reshape(-1, 3)).view(n_way, k_shot, -1)
    protos = z_s.mean(dim=1)
    z_q = encoder(query.reshape(-1, 3))
    dists = torch.cdist(z_q, protos) ** 2
    log_p = F.log_softmax(-dists, dim=1)
    loss = F.nll_loss(log_p, target)
    acc = (log_p.argmax(1) == target).float().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", acc.item())

# MoCo
encoder_q = encoder
encoder_k = copy.deepcopy(encoder_q)
for p in encoder_k.parameters():
    p.requires_grad = False
K, m, T = 8, 0.99, 0.2
queue = F.normalize(torch.cos(torch.arange(4 * K, dtype=torch.float32).view(4, K)), dim=0)
queue_ptr = torch.zeros(1, dtype=torch.long)

x = torch.sin(torch.arange(12, dtype=torch.float32).view(4, 3))
x_q, x_k = x * 1.1, x.roll(1, dims=1) * 0.9
opt = torch.optim.SGD(encoder_q.parameters(), lr=0.03, momentum=0.9)
for step in range(6):
    q = F.normalize(encoder_q(x_q), dim=1)
    with torch.no_grad():
        for pq, pk in zip(encoder_q.parameters(), encoder_k.parameters()):
            pk.data = pk.data * m + pq.data * (1.0 - m)
        k = F.normalize(encoder_k(x_k), dim=1)
    l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
    l_neg = torch.einsum("nc,ck->nk", [q, queue.clone().detach()])
    logits = torch.cat([l_pos, l_neg], dim=1) / T
    labels = torch.zeros(logits.shape[0], dtype=torch.long)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ptr = int(queue_ptr)
    queue[:, ptr:ptr + 4] = k.T
    queue_ptr[0] = (ptr + 4) % K
    print(step, logits.shape, f"{loss.item():.4f}", queue_ptr, k.requires_grad)
print(queue.norm(dim=0))
print(sum(p.requires_grad for p in encoder_k.parameters()), encoder_k[0].weight.grad)
