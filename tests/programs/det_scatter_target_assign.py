# Target assignment bookkeeping with scatter ops: per-gt best anchor via scatter_reduce(amax),
# counts of anchors per gt with scatter_add_ / index_add_, index_put_ with accumulate, per-class
# max score with scatter_reduce(include_self=False), masked_scatter_, take_along_dim and
# torch.combinations for pairwise box overlaps.
import torch

torch.set_printoptions(precision=4)

ious = torch.tensor([[0.1, 0.6, 0.3, 0.0, 0.7, 0.2],
                     [0.5, 0.1, 0.8, 0.4, 0.2, 0.9],
                     [0.0, 0.3, 0.1, 0.6, 0.65, 0.1]])
best_iou, assigned = ious.max(dim=0)
print(best_iou, assigned)
per_gt_max = torch.zeros(3).scatter_reduce(0, assigned, best_iou, reduce="amax", include_self=False)
print(per_gt_max)
per_gt_mean = torch.zeros(3).scatter_reduce(0, assigned, best_iou, reduce="mean", include_self=True)
print(per_gt_mean)
print(torch.full((3,), -1.0).scatter_reduce(0, assigned, best_iou, "amin", include_self=False))
print(torch.ones(3).scatter_reduce(0, assigned, best_iou, "prod"))
counts = torch.zeros(3, dtype=torch.long).scatter_add_(0, assigned, torch.ones_like(assigned))
print(counts, torch.zeros(3).index_add_(0, assigned, best_iou, alpha=2))
acc = torch.zeros(3)
acc.index_put_((assigned,), best_iou, accumulate=True)
print(acc)
last = torch.zeros(3)
last.index_put_((torch.tensor([0, 2]),), torch.tensor([5.0, 7.0]))
print(last)

# per-class max detection score
scores = torch.tensor([0.9, 0.2, 0.75, 0.4, 0.6, 0.85, 0.3])
cls = torch.tensor([1, 0, 1, 2, 0, 2, 0])
print(torch.zeros(3).scatter_reduce(0, cls, scores, reduce="amax", include_self=False))
# 2-D scatter_reduce over a batch
batch_scores = scores.view(1, -1).repeat(2, 1) * torch.tensor([[1.0], [0.5]])
print(torch.zeros(2, 3).scatter_reduce(1, cls.expand(2, -1), batch_scores, "sum"))
print(torch.zeros(2, 3).scatter(1, cls.expand(2, -1)[:, :3], 1.0))
print(torch.zeros(2, 3).scatter(1, torch.tensor([[0, 1], [2, 2]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), reduce="add"))

# pick the regression output of the assigned class with take_along_dim / gather
reg = torch.arange(7 * 3 * 2, dtype=torch.float32).view(7, 3, 2)
picked = torch.take_along_dim(reg, cls.view(-1, 1, 1), dim=1).squeeze(1)
print(picked)
print(torch.equal(picked, reg.gather(1, cls.view(-1, 1, 1).expand(-1, 1, 2)).squeeze(1)))
# masked_scatter_ to write new scores for kept detections
kept = scores > 0.5
new = torch.zeros_like(scores).masked_scatter_(kept, torch.tensor([10., 20., 30., 40.]))
print(new, torch.masked_select(scores, kept))

# overlaps between every pair of detections via combinations
boxes = torch.tensor([[0., 0., 4., 4.], [2., 2., 6., 6.], [5., 5., 9., 9.], [0., 1., 3., 5.]])
pairs = torch.combinations(torch.arange(4), r=2)
print(pairs.T)
a, b = boxes[pairs[:, 0]], boxes[pairs[:, 1]]
wh = (torch.min(a[:, 2:], b[:, 2:]) - torch.max(a[:, :2], b[:, :2])).clamp(min=0)
print(wh.prod(1))
print(torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True).shape)
print(torch.combinations(torch.tensor([7.0, 8.0]), r=3), torch.combinations(torch.tensor([7.0]), r=1))
try:
    torch.zeros(3).scatter_reduce(0, assigned, best_iou, reduce="max")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).scatter_(0, torch.tensor([0, 3]), 1.0)
except RuntimeError as e:
    print(type(e).__name__, e)
