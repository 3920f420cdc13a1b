# SimCLR's NT-Xent loss as people write it: F.normalize the two views, a 2N x 2N similarity matrix,
# mask the diagonal with masked_fill(-inf) (or fill_diagonal_), positives from an index shift,
# F.cross_entropy / temperature, plus the "logits and labels" variant from the SimCLR repo.
import torch
import torch.nn as nn
import torch.nn.functional as F


def nt_xent(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.T / temperature
    mask = torch.eye(2 * n, dtype=torch.bool)
    sim = sim.masked_fill(mask, float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets), sim


def info_nce_logits(features, batch_size, n_views=2, temperature=0.07):
    # sthalles/SimCLR style
    labels = torch.cat([torch.arange(batch_size) for _ in range(n_views)], dim=0)
    labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
    features = F.normalize(features, dim=1)
    similarity_matrix = torch.matmul(features, features.T)
    mask = torch.eye(labels.shape[0], dtype=torch.bool)
    labels = labels[~mask].view(labels.shape[0], -1)
    similarity_matrix = similarity_matrix[~mask].view(similarity_matrix.shape[0], -1)
    positives = similarity_matrix[labels.bool()].view(labels.shape[0], -1)
    negatives = similarity_matrix[~labels.bool()].view(similarity_matrix.shape[0], -1)
    logits = torch.cat([positives, negatives], dim=1)
    labels = torch.zeros(logits.shape[0], dtype=torch.long)
    return logits / temperature, labels


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 8), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))

    def forward(self, x):
        return self.projector(self.backbone(x))


x = torch.sin(torch.arange(24, dtype=torch.float32).view(4, 6) * 0.7)
view1 = x + 0.1 * torch.cos(torch.arange(24.0).view(4, 6))
view2 = x.flip(1) * 0.9 + 0.05

model = Encoder()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view(p.shape) * 0.5)

z1, z2 = model(view1), model(view2)
loss, sim = nt_xent(z1, z2)
print(sim.shape, sim.diagonal())
print(sim[0].round(decimals=3))
print("nt-xent", f"{loss.item():.5f}", loss.grad_fn)

logits, labels = info_nce_logits(torch.cat([z1, z2]), batch_size=4)
print(logits.shape, labels)
print(logits[:2].round(decimals=3))
print("info-nce", f"{F.cross_entropy(logits, labels).item():.5f}")

# the fill_diagonal_ variant with a large negative number
zz = F.normalize(torch.cat([z1, z2]), dim=-1)
s = zz @ zz.t()
s.fill_diagonal_(-1e9)
print(f"{F.cross_entropy(s / 0.5, torch.arange(8).roll(4)).item():.5f}")

opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for step in range(15):
    opt.zero_grad()
    loss, _ = nt_xent(model(view1), model(view2), temperature=0.2)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}")
print(model.projector[2].weight.grad.abs().sum() > 0)

with torch.no_grad():
    e1 = F.normalize(model(view1), dim=1)
    e2 = F.normalize(model(view2), dim=1)
    top1 = (e1 @ e2.T).argmax(dim=1)
    print("top1", top1, (top1 == torch.arange(4)).float().mean())
    print(F.normalize(torch.zeros(2, 3), dim=1), F.normalize(torch.tensor([[3.0, 4.0]]), p=1, dim=1))
