# MoCo v2 as in the reference repo: momentum key encoder built by deepcopy with requires_grad=False,
# a normalized queue buffer and a long queue_ptr buffer, einsum logits ('nc,nc->n', 'nc,ck->nk'),
# logits = cat([l_pos, l_neg]) / T, labels all zero, and _dequeue_and_enqueue by slice assignment.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCo(nn.Module):
    def __init__(self, dim=4, K=12, m=0.9, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(5, 6), nn.ReLU(), nn.Linear(6, dim))
        with torch.no_grad():
            for i, p in enumerate(self.encoder_q.parameters()):
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + 3 * i).view_as(p) * 0.5)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for param_k in self.encoder_k.parameters():
            param_k.requires_grad = False
        queue = torch.cos(torch.arange(dim * K, dtype=torch.float32) * 0.41).view(dim, K)
        self.register_buffer("queue", F.normalize(queue, dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % batch_size == 0
        self.queue[:, ptr:ptr + batch_size] = keys.T
        ptr = (ptr + batch_size) % self.K
        self.queue_ptr[0] = ptr

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


model = MoCo()
print(sorted(model.state_dict().keys()))
print("queue_ptr", model.queue_ptr, model.queue_ptr.dtype)
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
base = torch.sin(torch.arange(4 * 5, dtype=torch.float32) * 0.3).view(4, 5)
for step in range(6):
    im_q = base + 0.1 * torch.cos(torch.arange(20.0).view(4, 5) + step)
    im_k = base.flip(0).flip(0) - 0.1 * torch.sin(torch.arange(20.0).view(4, 5) * 0.5 + step)
    logits, labels = model(im_q, im_k)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(dim=1) == labels).float().mean()
    print(step, tuple(logits.shape), f"{loss.item():.4f}", f"acc={acc.item():.2f}", "ptr", model.queue_ptr.item())
print("key grads", [p.grad for p in model.encoder_k.parameters()])
print("queue col norms", model.queue.norm(dim=0).round(decimals=4))
print("key enc w", model.encoder_k[2].weight.round(decimals=4))
