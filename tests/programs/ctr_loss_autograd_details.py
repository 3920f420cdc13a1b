# Autograd details users print while debugging metric-learning code: grad_fn names of the built-in
# losses and distances, double backward through them (gradient penalties), float64 and half-width
# inputs, reduction='none' shapes, 0-d targets, and gradcheck on a custom contrastive loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

a = torch.tensor([[0.3, -1.2, 0.8], [1.0, 0.5, -0.5]], requires_grad=True)
b = torch.tensor([[0.1, 0.4, 0.9], [-0.7, 0.2, 0.3]])
c = torch.tensor([[1.5, -0.2, 0.0], [0.2, 0.2, 0.2]])
y = torch.tensor([1.0, -1.0])

outs = {
    "cosine_similarity": F.cosine_similarity(a, b),
    "pairwise_distance": F.pairwise_distance(a, b),
    "cdist": torch.cdist(a, b),
    "pdist": torch.pdist(a),
    "normalize": F.normalize(a, dim=1),
    "cosine_embedding": F.cosine_embedding_loss(a, b, y),
    "margin_ranking": F.margin_ranking_loss(a[:, 0], b[:, 0], y),
    "hinge_embedding": F.hinge_embedding_loss(a[:, 0], y),
    "triplet": F.triplet_margin_loss(a, b, c),
    "triplet_none": F.triplet_margin_loss(a, b, c, reduction="none"),
    "triplet_dist": F.triplet_margin_with_distance_loss(a, b, c),
}
for name, out in outs.items():
    print(name, tuple(out.shape), out.dtype, type(out.grad_fn).__name__)

# gradient penalty: || d loss / d a || through each loss (create_graph=True)
for name in ["cosine_embedding", "triplet", "pairwise_distance", "cosine_similarity"]:
    out = outs[name].sum()
    g, = torch.autograd.grad(out, a, create_graph=True)
    gp = g.sum(-1).pow(2).sum()
    gg, = torch.autograd.grad(gp, a)
    print(name, g.round(decimals=4), gg.round(decimals=4))

# float64 through the same path
a64 = a.detach().double().requires_grad_()
l64 = nn.TripletMarginLoss(margin=0.5)(a64, b.double(), c.double())
l64.backward()
print(l64.dtype, l64, a64.grad)
print(F.cosine_similarity(a64, b.double()).dtype, torch.cdist(a64, b.double()).dtype)
print(F.pairwise_distance(a.detach(), b.double()).dtype)
try:
    print(F.cosine_similarity(torch.tensor([[1, 2]]), torch.tensor([[3, 4]])))
except RuntimeError as e:
    print(type(e).__name__, e)


class ContrastiveLoss(nn.Module):
    """Hadsell et al. 2006, as written in siamese tutorials."""

    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin

    def forward(self, o1, o2, label):
        d = F.pairwise_distance(o1, o2, keepdim=True)
        return torch.mean((1 - label) * torch.pow(d, 2) + label * torch.pow(torch.clamp(self.margin - d, min=0.0), 2))


o1 = torch.tensor([[0.2, 0.1], [1.0, -1.0], [0.0, 0.3]], dtype=torch.float64, requires_grad=True)
o2 = torch.tensor([[0.1, 0.4], [0.9, -0.5], [2.0, 1.0]], dtype=torch.float64, requires_grad=True)
lab = torch.tensor([[0.0], [1.0], [1.0]], dtype=torch.float64)
crit = ContrastiveLoss(margin=1.0)
print(crit(o1, o2, lab))
print(torch.autograd.gradcheck(lambda u, v: crit(u, v, lab), (o1, o2)))
print(torch.autograd.gradcheck(lambda u, v: F.triplet_margin_loss(u, v, v.flip(0)), (o1, o2)))
print(torch.autograd.gradcheck(lambda u, v: torch.cdist(u, v, p=1.5), (o1, o2)))
print(torch.autograd.gradgradcheck(lambda u, v: F.cosine_similarity(u, v), (o1, o2)))
try:  # cdist has no double backward in PyTorch
    torch.autograd.gradgradcheck(lambda u, v: torch.cdist(u, v), (o1, o2))
except NotImplementedError as e:
    print(type(e).__name__, e)
l = crit(o1, o2, lab)
l.backward()
print(o1.grad, o2.grad)
