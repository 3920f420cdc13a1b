# DETR-style set criterion: matching cost from softmax class probs, L1 cdist and GIoU, a greedy
# assignment (argmin over the flattened cost, rows/cols masked with inf), _get_src_permutation_idx
# with full_like + cat, target classes filled with the no-object class, weighted cross entropy.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def box_cxcywh_to_xyxy(x):
    cx, cy, w, h = x.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


def generalized_box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    union = area_a[:, None] + area_b - inter
    iou = inter / union
    area_c = (torch.max(a[:, None, 2:], b[:, 2:]) - torch.min(a[:, None, :2], b[:, :2])).clamp(min=0).prod(-1)
    return iou - (area_c - union) / area_c


@torch.no_grad()
def greedy_match(cost):
    cost = cost.clone()
    rows, cols = [], []
    for _ in range(min(cost.shape)):
        flat = torch.argmin(cost)
        r, c = divmod(flat.item(), cost.size(1))
        rows.append(r)
        cols.append(c)
        cost[r, :] = float("inf")
        cost[:, c] = float("inf")
    order = torch.as_tensor(rows).argsort()
    return torch.as_tensor(rows, dtype=torch.int64)[order], torch.as_tensor(cols, dtype=torch.int64)[order]


num_queries, num_classes, bs = 6, 3, 2
q = torch.arange(bs * num_queries * (num_classes + 1), dtype=torch.float32)
pred_logits = torch.sin(q * 0.37).view(bs, num_queries, num_classes + 1).requires_grad_()
b = torch.arange(bs * num_queries * 4, dtype=torch.float32)
pred_boxes = (0.3 + 0.2 * torch.cos(b * 0.61)).view(bs, num_queries, 4).requires_grad_()
targets = [{"labels": torch.tensor([1, 0]), "boxes": torch.tensor([[0.3, 0.4, 0.2, 0.3], [0.6, 0.5, 0.3, 0.2]])},
           {"labels": torch.tensor([2, 2, 1]), "boxes": torch.tensor([[0.5, 0.5, 0.4, 0.4], [0.2, 0.3, 0.1, 0.2], [0.7, 0.2, 0.2, 0.3]])}]

out_prob = pred_logits.flatten(0, 1).softmax(-1)
out_bbox = pred_boxes.flatten(0, 1)
tgt_ids = torch.cat([v["labels"] for v in targets])
tgt_bbox = torch.cat([v["boxes"] for v in targets])
cost_class = -out_prob[:, tgt_ids]
cost_bbox = torch.cdist(out_bbox, tgt_bbox, p=1)
cost_giou = -generalized_box_iou(box_cxcywh_to_xyxy(out_bbox), box_cxcywh_to_xyxy(tgt_bbox))
C = (5 * cost_bbox + cost_class + 2 * cost_giou).view(bs, num_queries, -1).detach()
sizes = [len(v["boxes"]) for v in targets]
indices = [greedy_match(c[i]) for i, c in enumerate(C.split(sizes, -1))]
print(C.shape, [s.shape for s in C.split(sizes, -1)])
print(indices)

batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
src_idx = torch.cat([src for (src, _) in indices])
idx = (batch_idx, src_idx)
print(idx)
target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
target_classes = torch.full(pred_logits.shape[:2], num_classes, dtype=torch.int64)
target_classes[idx] = target_classes_o
print(target_classes)
empty_weight = torch.ones(num_classes + 1)
empty_weight[-1] = 0.1
loss_ce = F.cross_entropy(pred_logits.transpose(1, 2), target_classes, empty_weight)
src_boxes = pred_boxes[idx]
target_boxes = torch.cat([t["boxes"][i] for t, (_, i) in zip(targets, indices)], dim=0)
num_boxes = max(float(sum(sizes)), 1.0)
loss_bbox = F.l1_loss(src_boxes, target_boxes, reduction="none").sum() / num_boxes
loss_giou = (1 - torch.diag(generalized_box_iou(box_cxcywh_to_xyxy(src_boxes), box_cxcywh_to_xyxy(target_boxes)))).sum() / num_boxes
print(f"ce {loss_ce.item():.4f} l1 {loss_bbox.item():.4f} giou {loss_giou.item():.4f}")
(loss_ce + 5 * loss_bbox + 2 * loss_giou).backward()
print(pred_logits.grad[0])
print(pred_boxes.grad[1])
# cardinality error: number of non-"no-object" predictions vs targets
card_pred = (pred_logits.argmax(-1) != pred_logits.shape[-1] - 1).sum(1)
tgt_lengths = torch.as_tensor([len(v["labels"]) for v in targets])
print(card_pred, F.l1_loss(card_pred.float(), tgt_lengths.float()))
