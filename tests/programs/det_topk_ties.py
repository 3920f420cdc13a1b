# Top-k per class and across classes after score thresholding (RetinaNet postprocess), including
# tie handling in topk/sort/argsort (stable=True), kthvalue, and flattened topk -> (anchor, class).
import torch

torch.set_printoptions(precision=3)

num_anchors, num_classes = 6, 3
logits = torch.tensor([[2.0, -1.0, 0.5], [0.5, 0.5, 0.5], [-2.0, 3.0, 0.0],
                       [1.0, 1.0, -1.0], [0.5, -0.5, 2.0], [2.0, 2.0, 2.0]])
scores = torch.sigmoid(logits)
flat = scores.flatten()
keep = flat > 0.6
topk_idxs = torch.nonzero(keep).squeeze(1)
s = flat[keep]
num_topk = min(5, topk_idxs.size(0))
s, idxs = s.sort(descending=True, stable=True)
s, idxs = s[:num_topk], idxs[:num_topk]
topk_idxs = topk_idxs[idxs]
anchor_idxs = torch.div(topk_idxs, num_classes, rounding_mode="floor")
classes_idxs = topk_idxs % num_classes
print(s, anchor_idxs, classes_idxs)

# ties: stable sort keeps original order
t = torch.tensor([1, 3, 2, 3, 1, 2, 3])
print(torch.sort(t, stable=True), torch.sort(t, descending=True, stable=True))
print(torch.argsort(t, stable=True), t.argsort(descending=True, stable=True))
print(torch.topk(torch.tensor([5.0, 5.0, 5.0, 1.0]), 2).values)
v, i = torch.topk(torch.tensor([0.1, 0.9, 0.4, 0.9, 0.2]), 3, largest=True, sorted=True)
print(v, i.shape)
v, i = torch.topk(torch.tensor([0.1, 0.9, 0.4, 0.8, 0.2]), 2, largest=False)
print(v, i)
# per-class top-k along dim 0 with values
vals, inds = scores.topk(2, dim=0)
print(vals, inds)
print(scores.topk(1, dim=1, largest=True))
print(torch.kthvalue(torch.tensor([3.0, 1.0, 2.0, 5.0]), 2), torch.kthvalue(scores, 3, dim=0).values)
print(torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]])))
print(scores.max(dim=1), scores.argmax(dim=1, keepdim=True).squeeze(1))
# topk on an empty selection and k too large
print(torch.tensor([]).topk(0))
try:
    torch.tensor([1.0, 2.0]).topk(3)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    scores.topk(4, dim=1)
except RuntimeError as e:
    print(type(e).__name__, e)
# sorting with NaN scores (NaN is treated as largest)
n = torch.tensor([0.3, float("nan"), 0.9, 0.1])
print(n.sort(descending=True), n.topk(2), n.argsort())
print(torch.sort(torch.tensor([[0.5, 0.1], [0.2, 0.7]]), dim=0))
out_v = torch.empty(0); out_i = torch.empty(0, dtype=torch.long)
torch.topk(torch.tensor([4.0, 2.0, 8.0]), 2, out=(out_v, out_i))
print(out_v, out_i)
