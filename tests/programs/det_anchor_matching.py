# Matching anchors to ground-truth boxes as in SSD / RetinaNet: IoU matrix, max/argmax over dims,
# low-quality matches via nonzero on (iou == best), where for labels, gather of matched boxes,
# one-hot class targets via scatter_ and positive/negative sampling with topk.
import torch

torch.set_printoptions(precision=4)


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh.prod(dim=2)
    return inter / (area_a[:, None] + area_b - inter)


class Matcher:
    BELOW_LOW_THRESHOLD = -1
    BETWEEN_THRESHOLDS = -2

    def __init__(self, high, low, allow_low_quality_matches=False):
        self.high, self.low, self.allow = high, low, allow_low_quality_matches

    def __call__(self, match_quality_matrix):
        matched_vals, matches = match_quality_matrix.max(dim=0)
        all_matches = matches.clone() if self.allow else None
        below = matched_vals < self.low
        between = (matched_vals >= self.low) & (matched_vals < self.high)
        matches[below] = self.BELOW_LOW_THRESHOLD
        matches[between] = self.BETWEEN_THRESHOLDS
        if self.allow:
            highest, _ = match_quality_matrix.max(dim=1)
            gt_pred_pairs = torch.where(match_quality_matrix == highest[:, None])
            pred_inds_to_update = gt_pred_pairs[1]
            matches[pred_inds_to_update] = all_matches[pred_inds_to_update]
        return matches


gt_boxes = torch.tensor([[0., 0., 10., 10.], [20., 20., 32., 30.], [5., 25., 15., 40.]])
gt_labels = torch.tensor([3, 1, 2])
ys, xs = torch.meshgrid(torch.arange(0, 40, 10.0), torch.arange(0, 40, 10.0), indexing="ij")
anchors = torch.stack([xs, ys, xs + 12, ys + 12], dim=-1).view(-1, 4)
iou = box_iou(gt_boxes, anchors)
print(iou.shape, iou.max().item() > 0)
for allow in (False, True):
    m = Matcher(0.5, 0.3, allow)(iou)
    print("allow" if allow else "strict", m)
matches = Matcher(0.5, 0.3, True)(iou)
clamped = matches.clamp(min=0)
matched_boxes = gt_boxes[clamped]
labels = torch.where(matches >= 0, gt_labels[clamped], torch.zeros_like(matches))
labels[matches == Matcher.BETWEEN_THRESHOLDS] = -1
print(labels)
print(matched_boxes[matches >= 0])
# gather based alternative
idx = clamped[:, None].expand(-1, 4)
print(torch.equal(torch.gather(gt_boxes, 0, idx), matched_boxes))
# argmax form
best_gt = iou.argmax(dim=0)
best_anchor = iou.argmax(dim=1)
print(best_gt, best_anchor, iou.argmax(), iou.max(dim=1).values)
best_gt[best_anchor] = torch.arange(3)
print(best_gt)
# one-hot targets with scatter_
num_classes = 4
onehot = torch.zeros(anchors.size(0), num_classes + 1)
onehot.scatter_(1, labels.clamp(min=0).unsqueeze(1), 1.0)
onehot = onehot[:, 1:]
print(onehot.sum(0), onehot[labels > 0])
# hard negative mining: pick the 3 negatives with largest "loss"
neg_loss = (anchors[:, 0] * 0.37 + anchors[:, 1] * 0.11) % 1.0
neg_loss[labels != 0] = 0
val, neg_idx = neg_loss.topk(3)
print(val, neg_idx)
_, loss_idx = neg_loss.sort(descending=True)
_, idx_rank = loss_idx.sort()
print((idx_rank < 3).nonzero().squeeze(1))
