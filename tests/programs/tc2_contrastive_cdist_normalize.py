# Metric-learning losses compiled with torch.compile: SimCLR's NT-Xent on F.normalize'd embeddings
# (cosine-similarity matrix, diagonal masked with -inf), a triplet loss on torch.cdist distances with
# batch-hard mining, and a CLIP-style symmetric loss with a learnable logit_scale parameter.
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.compile
def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    n = z1.shape[0]
    sim = z @ z.t() / temperature
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


@torch.compile
def batch_hard_triplet(emb, labels, margin=0.3):
    d = torch.cdist(emb, emb, p=2)
    same = labels[:, None] == labels[None, :]
    hardest_pos = (d * same.float()).max(dim=1).values
    hardest_neg = d.masked_fill(same, float("inf")).min(dim=1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean(), d


class CLIPHead(nn.Module):
    def __init__(self, d_img=6, d_txt=5, d=4):
        super().__init__()
        self.img = nn.Linear(d_img, d, bias=False)
        self.txt = nn.Linear(d_txt, d, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, images, texts):
        i = F.normalize(self.img(images), dim=-1)
        t = F.normalize(self.txt(texts), dim=-1)
        logits = self.logit_scale.exp() * i @ t.t()
        labels = torch.arange(len(images))
        return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


base = torch.arange(24, dtype=torch.float32).view(6, 4)
z1 = torch.sin(base * 0.3).requires_grad_()
z2 = torch.sin(base * 0.3 + 0.2)
for tau in (0.5, 0.1):
    loss = nt_xent(z1, z2, tau)
    print(f"nt_xent tau={tau} {loss.item():.4f}")
nt_xent(z1, z2, 0.5).backward()
print("z1.grad", torch.round(z1.grad[0], decimals=4))

emb = torch.cos(torch.arange(16, dtype=torch.float32).view(8, 2) * 0.7).requires_grad_()
labels = torch.tensor([0, 0, 1, 1, 2, 2, 0, 1])
loss, dist = batch_hard_triplet(emb, labels)
print("triplet", f"{loss.item():.4f}", dist.shape, f"{dist.diagonal().abs().max().item():.4f}")
print(torch.round(dist[0], decimals=3))
loss.backward()
print("emb.grad", torch.round(emb.grad[:3], decimals=4))
print("cdist vs norm", torch.allclose(dist, (emb[:, None] - emb[None]).norm(dim=-1), atol=1e-5))

head = CLIPHead()
with torch.no_grad():
    head.img.weight.copy_(torch.linspace(-0.5, 0.5, 24).view(4, 6))
    head.txt.weight.copy_(torch.cos(torch.arange(20, dtype=torch.float32)).view(4, 5) * 0.5)
chead = torch.compile(head)
imgs = torch.sin(torch.arange(30, dtype=torch.float32).view(5, 6) * 0.41)
txts = torch.cos(torch.arange(25, dtype=torch.float32).view(5, 5) * 0.23)
opt = torch.optim.Adam(chead.parameters(), lr=0.05)
for step in range(12):
    opt.zero_grad()
    l = chead(imgs, txts)
    l.backward()
    opt.step()
    with torch.no_grad():
        chead.logit_scale.clamp_(0, 4.6052)
    if step % 4 == 0:
        print(f"clip step {step} loss {l.item():.4f} scale {head.logit_scale.exp().item():.4f}")
print(sorted(chead.state_dict().keys()))
