# Hand-written NMS the way detection repos write it: sort scores descending, loop while the order
# tensor is non-empty, suppress with boolean masks / nonzero / index_select; batched NMS by offsets,
# score thresholding and a Gaussian soft-NMS variant.
import torch

torch.set_printoptions(precision=4)


def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def nms(boxes, scores, iou_threshold):
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = box_area(boxes)
    _, order = scores.sort(0, descending=True)
    keep = []
    while order.numel() > 0:
        if order.numel() == 1:
            keep.append(order.item())
            break
        i = order[0].item()
        keep.append(i)
        xx1 = x1[order[1:]].clamp(min=x1[i].item())
        yy1 = y1[order[1:]].clamp(min=y1[i].item())
        xx2 = x2[order[1:]].clamp(max=x2[i].item())
        yy2 = y2[order[1:]].clamp(max=y2[i].item())
        inter = (xx2 - xx1).clamp(min=0) * (yy2 - yy1).clamp(min=0)
        iou = inter / (areas[i] + areas[order[1:]] - inter)
        idx = (iou <= iou_threshold).nonzero().squeeze()
        if idx.numel() == 0:
            break
        order = order[idx + 1]
        if order.dim() == 0:
            order = order.unsqueeze(0)
    return torch.LongTensor(keep)


def batched_nms(boxes, scores, idxs, iou_threshold):
    if boxes.numel() == 0:
        return torch.empty((0,), dtype=torch.int64)
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))
    return nms(boxes + offsets[:, None], scores, iou_threshold)


def soft_nms(boxes, scores, sigma=0.5, score_thresh=0.05):
    scores = scores.clone()
    idxs = torch.arange(boxes.size(0))
    keep = []
    while idxs.numel() > 0:
        top = torch.argmax(scores[idxs])
        cur = idxs[top]
        keep.append((cur.item(), round(scores[cur].item(), 4)))
        idxs = torch.cat([idxs[:top], idxs[top + 1:]])
        if idxs.numel() == 0:
            break
        lt = torch.max(boxes[cur, :2], boxes[idxs, :2])
        rb = torch.min(boxes[cur, 2:], boxes[idxs, 2:])
        wh = (rb - lt).clamp(min=0)
        inter = wh[:, 0] * wh[:, 1]
        iou = inter / (box_area(boxes[cur][None]) + box_area(boxes[idxs]) - inter)
        scores[idxs] *= torch.exp(-(iou * iou) / sigma)
        idxs = idxs[scores[idxs] > score_thresh]
    return keep


base = torch.tensor([[10., 10., 50., 50.], [12., 12., 52., 48.], [100., 100., 140., 150.],
                     [11., 9., 49., 51.], [98., 105., 138., 149.], [200., 10., 230., 40.],
                     [60., 60., 90., 95.], [62., 58., 91., 96.]])
scores = torch.tensor([0.9, 0.75, 0.8, 0.6, 0.85, 0.3, 0.55, 0.7])
labels = torch.tensor([0, 0, 1, 1, 1, 2, 0, 2])
keep = nms(base, scores, 0.5)
print("keep", keep, keep.dtype)
print(base.index_select(0, keep))
print("batched", batched_nms(base, scores, labels, 0.5))
mask = scores > 0.5
print("thresholded", mask.sum().item(), nms(base[mask], scores[mask], 0.5))
print(torch.nonzero(mask).flatten(), torch.nonzero(mask, as_tuple=True))
print("soft", soft_nms(base, scores))
print("empty", batched_nms(torch.zeros(0, 4), torch.zeros(0), torch.zeros(0, dtype=torch.long), 0.5))

# keep top-k detections per image after NMS
k = keep[:3]
print(scores[k], labels[k], scores[k].argsort(descending=True))
