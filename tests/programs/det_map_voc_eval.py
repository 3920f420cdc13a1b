# VOC/COCO-style average precision written with tensors: sort detections by score, greedy match
# to ground truth, tp/fp cumsum, precision envelope via flip + cummax, 11-point and all-point AP,
# recall thresholds with searchsorted, and mean over classes.
import torch

torch.set_printoptions(precision=4)


def iou_matrix(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])
    return inter / (area(a)[:, None] + area(b)[None] - inter)


def average_precision(recall, precision):
    mrec = torch.cat([torch.tensor([0.0]), recall, torch.tensor([1.0])])
    mpre = torch.cat([torch.tensor([1.0]), precision, torch.tensor([0.0])])
    mpre = torch.flip(torch.cummax(torch.flip(mpre, dims=[0]), dim=0).values, dims=[0])
    i = torch.where(mrec[1:] != mrec[:-1])[0]
    return torch.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])


def ap_11_point(recall, precision):
    ap = 0.0
    for t in torch.arange(0.0, 1.1, 0.1):
        p = precision[recall >= t]
        ap += (p.max() if p.numel() else torch.tensor(0.0)) / 11
    return ap


def eval_class(dets, scores, gts, iou_thr=0.5):
    order = torch.argsort(scores, descending=True)
    dets, scores = dets[order], scores[order]
    ious = iou_matrix(dets, gts)
    used = torch.zeros(len(gts), dtype=torch.bool)
    tp = torch.zeros(len(dets))
    for d in range(len(dets)):
        best, j = ious[d].max(0)
        if best >= iou_thr and not used[j]:
            tp[d] = 1
            used[j] = True
    fp = 1 - tp
    tp_c, fp_c = torch.cumsum(tp, 0), torch.cumsum(fp, 0)
    recall = tp_c / len(gts)
    precision = tp_c / torch.clamp(tp_c + fp_c, min=torch.finfo(torch.float32).eps)
    return recall, precision


gts = {0: torch.tensor([[0., 0., 10., 10.], [20., 20., 30., 30.], [40., 0., 50., 12.]]),
       1: torch.tensor([[5., 5., 15., 25.]])}
dets = {0: torch.tensor([[1., 1., 10., 11.], [21., 19., 30., 31.], [0., 0., 9., 9.], [60., 60., 70., 70.], [41., 1., 50., 12.]]),
        1: torch.tensor([[5., 6., 15., 24.], [30., 30., 35., 35.]])}
scores = {0: torch.tensor([0.9, 0.6, 0.8, 0.7, 0.3]), 1: torch.tensor([0.4, 0.95])}
aps = []
for c in gts:
    rec, prec = eval_class(dets[c], scores[c], gts[c])
    print(c, rec, prec)
    ap = average_precision(rec, prec)
    ap11 = ap_11_point(rec, prec)
    print(f"class {c}: AP={ap.item():.4f} AP11={float(ap11):.4f}")
    aps.append(ap)
print("mAP", f"{torch.stack(aps).mean().item():.4f}")

# COCO-style 101 recall thresholds with searchsorted on the envelope
rec, prec = eval_class(dets[0], scores[0], gts[0])
env = prec.clone()
for i in range(env.numel() - 1, 0, -1):
    env[i - 1] = torch.maximum(env[i - 1], env[i])
rec_thrs = torch.linspace(0, 1, 101)
inds = torch.searchsorted(rec, rec_thrs, side="left")
q = torch.zeros(101)
valid = inds < env.numel()
q[valid] = env[inds[valid]]
print(inds[::10], q[::20], f"{q.mean().item():.4f}")
print(torch.cummax(torch.tensor([0.2, 0.5, 0.3, 0.7, 0.1]), 0))
print(torch.cummin(torch.tensor([3, 1, 2, 0, 4]), 0))
print(torch.flip(torch.arange(6).view(2, 3), [0, 1]), torch.arange(6).view(2, 3).fliplr())
