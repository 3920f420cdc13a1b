# Per-class dataset statistics a detection repo prints: torch.unique with return_inverse /
# return_counts (also dim=0 for duplicate boxes), bincount with weights/minlength, unique_consecutive.
import torch

torch.set_printoptions(precision=4)

labels = torch.tensor([3, 1, 1, 0, 3, 3, 2, 7, 1, 3])
u, inv, cnt = torch.unique(labels, return_inverse=True, return_counts=True)
print(u, inv, cnt)
print(torch.unique(labels, sorted=True), labels.unique(return_counts=True))
print(torch.bincount(labels), torch.bincount(labels, minlength=10))
areas = torch.linspace(1, 10, 10)
print(torch.bincount(labels, weights=areas))
print(torch.bincount(labels, weights=areas.double()).dtype, torch.bincount(labels).dtype)
print(torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
# mean box area per class via index_add / bincount
sums = torch.zeros(u.numel()).index_add_(0, inv, areas)
print(sums / cnt)
# class frequency weights for a loss
freq = cnt.float() / cnt.sum()
print((1.0 / freq) / (1.0 / freq).sum())

# duplicate boxes in annotations
boxes = torch.tensor([[0, 0, 4, 4], [1, 1, 3, 3], [0, 0, 4, 4], [2, 2, 5, 5], [1, 1, 3, 3]])
ub, binv, bcnt = torch.unique(boxes, dim=0, return_inverse=True, return_counts=True)
print(ub, binv, bcnt)
print(torch.unique(boxes.T, dim=1))
# consecutive runs (e.g. image ids in a sorted target list)
img_ids = torch.tensor([0, 0, 0, 1, 1, 3, 3, 3, 3, 0])
print(torch.unique_consecutive(img_ids, return_counts=True, return_inverse=True))
vals, counts = img_ids.unique_consecutive(return_counts=True)
print(torch.split(torch.arange(img_ids.numel()), counts.tolist()))
# per-image number of targets with bincount on sorted ids
print(torch.bincount(img_ids, minlength=5).tolist())
# histogram of IoUs
ious = torch.tensor([0.05, 0.15, 0.45, 0.55, 0.51, 0.95, 0.7, 0.3])
print(torch.histc(ious, bins=5, min=0, max=1))
print(torch.bucketize(ious, torch.tensor([0.3, 0.5, 0.7])), torch.searchsorted(torch.tensor([0.3, 0.5, 0.7]), ious, right=True))
try:
    torch.bincount(torch.tensor([-1, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([1, 2]), weights=torch.tensor([1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.unique(torch.tensor([2.0, float("nan"), 1.0, 2.0])))
print(torch.unique(torch.tensor([True, False, True]), return_counts=True))
