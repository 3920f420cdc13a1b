# A tiny single-level anchor-free detector head (FCOS-like) trained for a few steps on synthetic
# boxes: conv backbone, per-location classification + ltrb regression, targets from the grid,
# focal-ish BCE + IoU loss on positives, SGD with momentum; losses printed every few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)


class TinyHead(nn.Module):
    def __init__(self, num_classes=2, ch=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, ch, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(ch, num_classes, 1)
        self.reg = nn.Conv2d(ch, 4, 1)

    def forward(self, x):
        f = self.stem(x)
        return self.cls(f), F.relu(self.reg(f))


def make_image(box):
    ys, xs = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    x1, y1, x2, y2 = box
    inside = (xs >= x1) & (xs < x2) & (ys >= y1) & (ys < y2)
    return inside.float()[None]


boxes = torch.tensor([[2., 2., 10., 8.], [6., 4., 14., 14.], [0., 8., 8., 16.], [8., 0., 16., 6.]])
labels = torch.tensor([0, 1, 1, 0])
images = torch.stack([make_image(b) for b in boxes])
stride = 4
ys, xs = torch.meshgrid(torch.arange(4.0), torch.arange(4.0), indexing="ij")
points = torch.stack([xs.reshape(-1), ys.reshape(-1)], 1) * stride + stride // 2


def targets_for(box, label):
    l = points[:, 0] - box[0]
    t = points[:, 1] - box[1]
    r = box[2] - points[:, 0]
    b = box[3] - points[:, 1]
    ltrb = torch.stack([l, t, r, b], 1)
    pos = ltrb.min(dim=1).values > 0
    cls_t = torch.zeros(points.size(0), 2)
    cls_t[pos, label] = 1.0
    return cls_t, ltrb / stride, pos


def iou_loss(pred, target):
    pa = (pred[:, 0] + pred[:, 2]) * (pred[:, 1] + pred[:, 3])
    ta = (target[:, 0] + target[:, 2]) * (target[:, 1] + target[:, 3])
    wi = torch.min(pred[:, 0], target[:, 0]) + torch.min(pred[:, 2], target[:, 2])
    hi = torch.min(pred[:, 1], target[:, 1]) + torch.min(pred[:, 3], target[:, 3])
    inter = wi * hi
    return -torch.log((inter + 1) / (pa + ta - inter + 1)).mean()


model = TinyHead()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        n = p.numel()
        p.copy_(torch.cos(torch.arange(n, dtype=torch.float32) * (0.7 + 0.1 * i)).view_as(p) * 0.3)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
tgts = [targets_for(b, l) for b, l in zip(boxes, labels)]
cls_t = torch.stack([t[0] for t in tgts])
reg_t = torch.stack([t[1] for t in tgts])
pos = torch.stack([t[2] for t in tgts])
print("positives per image", pos.sum(1).tolist())
for step in range(30):
    cls_out, reg_out = model(images)
    cls_out = cls_out.permute(0, 2, 3, 1).reshape(4, -1, 2)
    reg_out = reg_out.permute(0, 2, 3, 1).reshape(4, -1, 4)
    loss_cls = F.binary_cross_entropy_with_logits(cls_out, cls_t, reduction="sum") / pos.sum()
    loss_reg = iou_loss(reg_out[pos], reg_t[pos])
    loss = loss_cls + loss_reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        print(f"step {step:2d} cls {loss_cls.item():.4f} reg {loss_reg.item():.4f}")
with torch.no_grad():
    cls_out, reg_out = model(images)
    prob = cls_out.sigmoid().flatten(2)
    best, where = prob.max(dim=2)
    print(best.round(decimals=2), where)
    pred_cls = prob.amax(dim=2).argmax(dim=1)
    print("pred labels", pred_cls.tolist(), "true", labels.tolist())
