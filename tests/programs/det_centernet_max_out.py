# CenterNet heatmap decoding. Draw Gaussian peaks on a heatmap (max with existing), pseudo-NMS with
# max_pool2d (hmax == heat), topk over the flattened class x H x W scores, recover class / ys / xs
# with integer division, gather width-height and offset maps with _gather_feat / _transpose_and_gather_feat.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def gaussian2d(radius, sigma):
    m = torch.arange(-radius, radius + 1, dtype=torch.float32)
    y, x = m[:, None], m[None, :]
    h = torch.exp(-(x * x + y * y) / (2 * sigma * sigma))
    h[h < torch.finfo(h.dtype).eps * h.max()] = 0
    return h


def draw_gaussian(heatmap, center, radius):
    d = 2 * radius + 1
    g = gaussian2d(radius, sigma=d / 6)
    x, y = center
    H, W = heatmap.shape
    left, right = min(x, radius), min(W - x, radius + 1)
    top, bottom = min(y, radius), min(H - y, radius + 1)
    masked_h = heatmap[y - top:y + bottom, x - left:x + right]
    masked_g = g[radius - top:radius + bottom, radius - left:radius + right]
    torch.max(masked_h, masked_g, out=masked_h)
    return heatmap


def _nms(heat, kernel=3):
    hmax = F.max_pool2d(heat, (kernel, kernel), stride=1, padding=(kernel - 1) // 2)
    keep = (hmax == heat).float()
    return heat * keep


def _gather_feat(feat, ind):
    dim = feat.size(2)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), dim)
    return feat.gather(1, ind)


def _transpose_and_gather_feat(feat, ind):
    feat = feat.permute(0, 2, 3, 1).contiguous()
    feat = feat.view(feat.size(0), -1, feat.size(3))
    return _gather_feat(feat, ind)


def _topk(scores, K):
    batch, cat, height, width = scores.size()
    topk_scores, topk_inds = torch.topk(scores.view(batch, cat, -1), K)
    topk_inds = topk_inds % (height * width)
    topk_ys = (topk_inds // width).float()
    topk_xs = (topk_inds % width).int().float()
    topk_score, topk_ind = torch.topk(topk_scores.view(batch, -1), K)
    topk_clses = torch.div(topk_ind, K, rounding_mode="trunc").int()
    topk_inds = _gather_feat(topk_inds.view(batch, -1, 1), topk_ind).view(batch, K)
    topk_ys = _gather_feat(topk_ys.view(batch, -1, 1), topk_ind).view(batch, K)
    topk_xs = _gather_feat(topk_xs.view(batch, -1, 1), topk_ind).view(batch, K)
    return topk_score, topk_inds, topk_clses, topk_ys, topk_xs


H = W = 12
heat = torch.zeros(1, 2, H, W)
draw_gaussian(heat[0, 0], (3, 4), 2)
draw_gaussian(heat[0, 0], (5, 5), 2)
draw_gaussian(heat[0, 1], (9, 2), 3)
draw_gaussian(heat[0, 1], (0, 11), 1)
print(heat[0, 0, 2:7, 1:8])
peaks = _nms(heat)
print((peaks > 0).sum().item(), peaks.nonzero()[:6])
K = 5
scores, inds, clses, ys, xs = _topk(peaks, K)
print(scores, inds, clses, ys, xs, sep="\n")
wh = torch.stack([torch.arange(H * W).view(H, W) % 7 + 2.0, torch.arange(H * W).view(H, W) % 5 + 1.0]).unsqueeze(0)
reg = torch.stack([torch.linspace(0, 0.9, H * W).view(H, W), torch.linspace(0.9, 0, H * W).view(H, W)]).unsqueeze(0)
wh_k = _transpose_and_gather_feat(wh, inds)
reg_k = _transpose_and_gather_feat(reg, inds)
xs = xs.view(1, K, 1) + reg_k[:, :, 0:1]
ys = ys.view(1, K, 1) + reg_k[:, :, 1:2]
bboxes = torch.cat([xs - wh_k[..., 0:1] / 2, ys - wh_k[..., 1:2] / 2,
                    xs + wh_k[..., 0:1] / 2, ys + wh_k[..., 1:2] / 2], dim=2)
dets = torch.cat([bboxes, scores.unsqueeze(2), clses.float().unsqueeze(2)], dim=2)
print(dets)
# focal loss on the heatmap (CornerNet variant)
pred = torch.sigmoid(torch.linspace(-3, 3, 2 * H * W).view(1, 2, H, W)).clamp(1e-4, 1 - 1e-4).requires_grad_()
pos = heat.eq(1).float()
neg_w = torch.pow(1 - heat, 4)
pos_loss = (torch.log(pred) * torch.pow(1 - pred, 2) * pos).sum()
neg_loss = (torch.log(1 - pred) * torch.pow(pred, 2) * neg_w * (1 - pos)).sum()
loss = -(pos_loss + neg_loss) / pos.sum()
loss.backward()
print(f"{loss.item():.4f}", pos.sum().item(), f"{pred.grad.abs().sum().item():.4f}")
