# Faster R-CNN style BoxCoder: encode gt boxes relative to anchors (log of w/h ratios, weights),
# decode predicted deltas with exp and clamping of dw/dh at log(1000/16), clip to image size.
import math
import torch

torch.set_printoptions(precision=4, sci_mode=False)
BBOX_XFORM_CLIP = math.log(1000.0 / 16)


class BoxCoder:
    def __init__(self, weights=(10.0, 10.0, 5.0, 5.0), clip=BBOX_XFORM_CLIP):
        self.weights = weights
        self.clip = clip

    def encode(self, ref, proposals):
        wx, wy, ww, wh = self.weights
        pw = proposals[:, 2] - proposals[:, 0]
        ph = proposals[:, 3] - proposals[:, 1]
        px = proposals[:, 0] + 0.5 * pw
        py = proposals[:, 1] + 0.5 * ph
        gw = ref[:, 2] - ref[:, 0]
        gh = ref[:, 3] - ref[:, 1]
        gx = ref[:, 0] + 0.5 * gw
        gy = ref[:, 1] + 0.5 * gh
        dx = wx * (gx - px) / pw
        dy = wy * (gy - py) / ph
        dw = ww * torch.log(gw / pw)
        dh = wh * torch.log(gh / ph)
        return torch.stack((dx, dy, dw, dh), dim=1)

    def decode(self, codes, boxes):
        boxes = boxes.to(codes.dtype)
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
        ctr_x = boxes[:, 0] + 0.5 * widths
        ctr_y = boxes[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = codes[:, 0::4] / wx
        dy = codes[:, 1::4] / wy
        dw = codes[:, 2::4] / ww
        dh = codes[:, 3::4] / wh
        dw = torch.clamp(dw, max=self.clip)
        dh = torch.clamp(dh, max=self.clip)
        pcx = dx * widths[:, None] + ctr_x[:, None]
        pcy = dy * heights[:, None] + ctr_y[:, None]
        pw = torch.exp(dw) * widths[:, None]
        ph = torch.exp(dh) * heights[:, None]
        c_to_c_h = torch.tensor(0.5, dtype=pcy.dtype) * ph
        c_to_c_w = torch.tensor(0.5, dtype=pcx.dtype) * pw
        out = torch.stack((pcx - c_to_c_w, pcy - c_to_c_h, pcx + c_to_c_w, pcy + c_to_c_h), dim=2)
        return out.flatten(1)


def clip_boxes_to_image(boxes, size):
    h, w = size
    x = boxes[..., 0::2].clamp(min=0, max=w)
    y = boxes[..., 1::2].clamp(min=0, max=h)
    return torch.stack((x, y), dim=boxes.dim()).reshape(boxes.shape)


coder = BoxCoder()
idx = torch.arange(5, dtype=torch.float32)
anchors = torch.stack([idx * 8, idx * 4, idx * 8 + 16, idx * 4 + 32], dim=1)
jitter = torch.tensor([[0.5, 1.0, 2.5, -1.0], [-1.5, 0.5, 3.0, 2.0], [2.0, -2.0, -1.5, 4.5],
                       [0.0, 3.0, 1.0, -2.5], [-0.5, -1.0, 6.0, 1.5]])
gt = anchors + jitter
deltas = coder.encode(gt, anchors)
print(deltas)
back = coder.decode(deltas, anchors)
print(back)
print("max err", f"{(back - gt).abs().max().item():.5f}")

# huge predicted deltas get clamped before exp
big = torch.tensor([[0.0, 0.0, 100.0, -100.0], [1.0, -1.0, 30.0, 30.0]])
dec = coder.decode(big, anchors[:2])
print(dec)
print(clip_boxes_to_image(dec, (60, 50)))
# multi-class codes: 2 classes -> 8 numbers per row
multi = torch.cat([deltas, deltas * 0.5], dim=1)
print(coder.decode(multi, anchors).shape)
print(coder.decode(multi, anchors).view(-1, 2, 4)[:, 1])

# the encode is differentiable w.r.t. gt (used by some losses)
g = gt.clone().requires_grad_()
coder.encode(g, anchors).pow(2).sum().backward()
print(g.grad)
print(anchors.to(torch.float64).dtype, coder.decode(deltas.double(), anchors).dtype)
