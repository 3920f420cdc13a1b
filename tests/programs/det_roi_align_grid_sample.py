# RoIAlign written with F.grid_sample (affine_grid per box, align_corners=False), batch index per
# roi, adaptive_max_pool2d RoIPool alternative, and FPN level assignment with log2 / floor / clamp.
import math
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)

feat = torch.stack([torch.sin(torch.arange(64.0) * 0.3).view(8, 8),
                    torch.cos(torch.arange(64.0) * 0.2).view(8, 8)]).unsqueeze(0).repeat(2, 1, 1, 1)
feat[1] *= 2
rois = torch.tensor([[0, 0.0, 0.0, 16.0, 16.0],
                     [0, 8.0, 4.0, 24.0, 30.0],
                     [1, 2.0, 2.0, 10.0, 14.0]])
spatial_scale = 1 / 4
out_size = (3, 3)


def roi_align(feat, rois, out_size, spatial_scale):
    N, C, H, W = feat.shape
    idx = rois[:, 0].long()
    boxes = rois[:, 1:] * spatial_scale
    x1, y1, x2, y2 = boxes.unbind(1)
    theta = torch.zeros(rois.size(0), 2, 3)
    theta[:, 0, 0] = (x2 - x1) / W
    theta[:, 0, 2] = (x1 + x2) / W - 1
    theta[:, 1, 1] = (y2 - y1) / H
    theta[:, 1, 2] = (y1 + y2) / H - 1
    grid = F.affine_grid(theta, (rois.size(0), C) + out_size, align_corners=False)
    return F.grid_sample(feat[idx], grid, mode="bilinear", align_corners=False)


aligned = roi_align(feat, rois, out_size, spatial_scale)
print(aligned.shape)
print(aligned[0, 0])
print(aligned[2, 1])

pooled = []
for r in rois:
    b = int(r[0])
    x1, y1, x2, y2 = (r[1:] * spatial_scale).round().long().tolist()
    region = feat[b:b + 1, :, y1:max(y2, y1 + 1), x1:max(x2, x1 + 1)]
    pooled.append(F.adaptive_max_pool2d(region, out_size))
pooled = torch.cat(pooled)
print(pooled[1, 0])


def map_levels(boxes, k_min=2, k_max=5, canonical_scale=224, canonical_level=4, eps=1e-6):
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    s = torch.sqrt(area)
    target_lvls = torch.floor(canonical_level + torch.log2(s / canonical_scale + eps))
    target_lvls = torch.clamp(target_lvls, min=k_min, max=k_max)
    return (target_lvls.to(torch.int64) - k_min).to(torch.int64)


props = torch.tensor([[0., 0., 32., 32.], [0., 0., 112., 112.], [0., 0., 224., 224.],
                      [0., 0., 500., 400.], [10., 10., 20., 15.], [0., 0., 1000., 1000.]])
levels = map_levels(props)
print(levels)
for lvl in range(4):
    idx_in_level = torch.where(levels == lvl)[0]
    print(lvl, idx_in_level.tolist())
print(math.log2(224), torch.log2(torch.tensor([224.0, 1.0, 0.5])))

# gradient through grid_sample to the feature map
f = feat[:1].clone().requires_grad_()
roi_align(f, rois[:1], (2, 2), spatial_scale).sum().backward()
print(f.grad[0, 0, :5, :5])
