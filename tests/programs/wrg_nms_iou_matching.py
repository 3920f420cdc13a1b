# Object-detection postprocessing written by hand: IoU matrix, greedy NMS with argsort and masks,
# anchor matching (max over dims, index_put to force best anchors), per-class batched NMS offsets.
import torch

torch.set_printoptions(precision=4)


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def nms(boxes, scores, thresh):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= thresh]
    return torch.tensor(keep, dtype=torch.long)


k = torch.arange(10, dtype=torch.float32)
x0 = (torch.sin(k * 1.3) + 1) * 10
y0 = (torch.cos(k * 0.7) + 1) * 10
boxes = torch.stack([x0, y0, x0 + 8 + k % 3, y0 + 6 + k % 4], dim=1).round(decimals=2)
scores = (torch.sin(k * 2.1) + 1) / 2
classes = torch.tensor([0, 1, 0, 0, 1, 2, 2, 0, 1, 2])
print(box_iou(boxes[:4], boxes[:4]))
keep = nms(boxes, scores, 0.3)
print("keep", keep)

# batched NMS via coordinate offsets per class
offsets = classes.float()[:, None] * (boxes.max() + 1)
keep_b = nms(boxes + offsets, scores, 0.3)
print("batched keep", keep_b, classes[keep_b])
for c in classes.unique():
    idx = (classes == c).nonzero().squeeze(1)
    print(c.item(), idx[nms(boxes[idx], scores[idx], 0.3)])

# anchor matching
anchors = torch.tensor([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 15.0, 15.0], [10.0, 10.0, 20.0, 20.0],
                        [0.0, 10.0, 10.0, 20.0], [15.0, 0.0, 25.0, 10.0]])
gt = boxes[[0, 3, 6]]
iou = box_iou(gt, anchors)
print(iou)
best_gt_iou, best_gt = iou.max(dim=0)
best_anchor_iou, best_anchor = iou.max(dim=1)
print(best_gt_iou, best_gt, best_anchor)
matches = best_gt.clone()
matches[best_gt_iou < 0.2] = -1
matches.index_put_((best_anchor,), torch.arange(gt.size(0)))
print("matches", matches)
pos = matches >= 0
labels = torch.zeros(anchors.size(0), dtype=torch.long)
labels[pos] = classes[[0, 3, 6]][matches[pos]] + 1
print("labels", labels)
print(torch.bincount(labels, minlength=4))
# top-k detections per image with score threshold
det_scores = torch.stack([scores, scores.flip(0)])
valid = det_scores > 0.3
print(valid.sum(1))
topv, topi = det_scores.masked_fill(~valid, -1).topk(3, dim=1)
print(topv, topi)
print(torch.gather(boxes.expand(2, -1, -1), 1, topi[..., None].expand(-1, -1, 4)))
# area-sorted unique classes
areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
print(areas.sort(descending=True, stable=True))
print(torch.argwhere(iou > 0.1))
