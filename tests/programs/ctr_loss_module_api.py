# The metric-learning loss modules' API surface users poke at: reprs, attributes, the legacy
# size_average/reduce arguments (with their warning), integer and broadcast targets, empty batches,
# state_dict of loss modules, and the messages for the mistakes users make.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

mods = [nn.CosineEmbeddingLoss(margin=0.3), nn.MarginRankingLoss(margin=1.0, reduction="sum"),
        nn.HingeEmbeddingLoss(margin=2.0), nn.TripletMarginLoss(margin=0.5, p=1.0, swap=True),
        nn.TripletMarginWithDistanceLoss(margin=0.2), nn.PairwiseDistance(p=3.0, keepdim=True),
        nn.CosineSimilarity(dim=-1)]
for m in mods:
    print(m, type(m).__mro__[1].__name__, dict(m.state_dict()))
print(mods[0].margin, mods[0].reduction, mods[3].p, mods[3].eps, mods[3].swap, mods[4].distance_function)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    legacy = nn.MarginRankingLoss(size_average=False)
    print(legacy.reduction, len(w), w[0].category.__name__ if w else None)
    legacy2 = nn.HingeEmbeddingLoss(reduce=False)
    print(legacy2.reduction)

s1 = torch.tensor([0.5, 0.1, -0.3, 0.8])
s2 = torch.tensor([0.2, 0.4, 0.0, 0.8])
y = torch.tensor([1, -1, 1, -1])
print(F.margin_ranking_loss(s1, s2, y))
print(F.margin_ranking_loss(s1[:, None], s2[None, :], torch.ones(4, 4)).shape)
print(F.hinge_embedding_loss(s1, y), F.hinge_embedding_loss(s1, torch.ones(4, dtype=torch.long), reduction="sum"))
print(F.hinge_embedding_loss(s1.view(2, 2), y.view(2, 2).float(), margin=0.5, reduction="none"))

empty = torch.zeros(0, 3)
print(F.triplet_margin_loss(empty, empty, empty), F.cosine_embedding_loss(empty, empty, torch.zeros(0)))
print(F.margin_ranking_loss(torch.zeros(0), torch.zeros(0), torch.zeros(0)), F.hinge_embedding_loss(torch.zeros(0), torch.zeros(0)))
print(F.triplet_margin_loss(empty, empty, empty, reduction="sum"), torch.cdist(empty, torch.ones(2, 3)).shape)
print(F.pairwise_distance(empty, empty).shape, F.cosine_similarity(empty, empty).shape)

x = torch.tensor([[1.0, 0.0], [0.0, 1.0]], dtype=torch.float64)
print(F.triplet_margin_loss(x, x.flip(0), x * 2).dtype, F.cosine_embedding_loss(x, x, torch.tensor([1, -1])).dtype)
print(F.margin_ranking_loss(s1.double(), s2, y).dtype, F.hinge_embedding_loss(s1.double(), y).dtype)

for bad in [lambda: F.margin_ranking_loss(s1, s2, y, reduction="mean_all"),
            lambda: F.margin_ranking_loss(s1, s2, torch.tensor(1.0)),
            lambda: nn.TripletMarginLoss(margin=1.0)(s1, s2),
            lambda: F.triplet_margin_loss(s1[None], s2[None], s1[None, :3]),
            lambda: F.hinge_embedding_loss(s1, y[:3]),
            lambda: F.margin_ranking_loss(s1, s2, y[:2]),
            lambda: F.cosine_embedding_loss(s1, s2, y),
            lambda: F.triplet_margin_with_distance_loss(s1[None], s2[None], s1[None], distance_function="cosine"),
            lambda: F.pairwise_distance(s1, s2[:3]),
            lambda: nn.CosineEmbeddingLoss()(s1[None], s2[None], torch.tensor([2]))]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
