# YOLOv3-style head decoding of the raw conv output viewed as (B, A, 5+C, H, W), permuted, sigmoid on
# xy/objectness/classes, exp on wh times anchors, grid offsets from meshgrid, confidence filtering,
# per-image best class with max and a final (x1,y1,x2,y2,score,cls) detection tensor.
import torch
import torch.nn as nn

torch.set_printoptions(precision=3, sci_mode=False)


class YOLOLayer(nn.Module):
    def __init__(self, anchors, num_classes, stride):
        super().__init__()
        self.register_buffer("anchors", torch.tensor(anchors, dtype=torch.float32))
        self.na = len(anchors)
        self.no = num_classes + 5
        self.stride = stride

    def forward(self, p):
        bs, _, ny, nx = p.shape
        p = p.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        yv, xv = torch.meshgrid([torch.arange(ny), torch.arange(nx)], indexing="ij")
        grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()
        anchor_wh = self.anchors.view(1, self.na, 1, 1, 2) / self.stride
        io = p.clone()
        io[..., :2] = torch.sigmoid(io[..., :2]) + grid
        io[..., 2:4] = torch.exp(io[..., 2:4]) * anchor_wh
        io[..., :4] *= self.stride
        torch.sigmoid_(io[..., 4:])
        return io.view(bs, -1, self.no), p


layer = YOLOLayer([(10, 13), (16, 30)], num_classes=2, stride=8)
print(layer.anchors, list(layer.state_dict().keys()))
c = layer.na * layer.no
raw = torch.sin(torch.arange(2 * c * 3 * 4, dtype=torch.float32) * 0.37).view(2, c, 3, 4)
io, p = layer(raw)
print(io.shape, p.shape, p.is_contiguous())
print(io[0, :4])


def xywh2xyxy(x):
    y = x.clone()
    y[:, 0] = x[:, 0] - x[:, 2] / 2
    y[:, 1] = x[:, 1] - x[:, 3] / 2
    y[:, 2] = x[:, 0] + x[:, 2] / 2
    y[:, 3] = x[:, 1] + x[:, 3] / 2
    return y


def postprocess(pred, conf_thres=0.55):
    output = []
    for xi, x in enumerate(pred):
        x = x[x[:, 4] > conf_thres]
        if not x.shape[0]:
            output.append(torch.zeros((0, 6)))
            continue
        x[:, 5:] *= x[:, 4:5]
        box = xywh2xyxy(x[:, :4])
        conf, j = x[:, 5:].max(1, keepdim=True)
        det = torch.cat((box, conf, j.float()), 1)[conf.view(-1) > conf_thres * 0.6]
        det = det[det[:, 4].argsort(descending=True)]
        output.append(det)
    return output


for i, det in enumerate(postprocess(io)):
    print(i, det.shape)
    print(det[:5])
# multi-label variant: all (box, class) pairs above threshold via nonzero(as_tuple=False).T
x = io[0]
i, j = (x[:, 5:] > 0.5).nonzero(as_tuple=False).T
print(i[:10], j[:10])
print(torch.cat((x[i, :4], x[i, j + 5, None], j[:, None].float()), 1)[:3])
# torch.max returning a namedtuple
r = io[1, :, 5:].max(dim=1)
print(type(r).__name__, r.indices[:8], r.values.shape)
