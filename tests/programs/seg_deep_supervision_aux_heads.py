# PSPNet/DeepLab training with deep supervision: model returns (main, aux) logits in train mode and
# only main in eval, aux CE weighted 0.4, heads upsampled to label size, per-class IoU tracked per epoch.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNetAux(nn.Module):
    def __init__(self, ncls=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(2, 8, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.layer = nn.Sequential(nn.Conv2d(8, 8, 3, padding=2, dilation=2, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.head = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.Dropout2d(0.0), nn.Conv2d(8, ncls, 1))
        self.aux = nn.Conv2d(8, ncls, 1)

    def forward(self, x):
        size = x.shape[-2:]
        f1 = self.stem(x)
        f2 = self.layer(f1)
        out = F.interpolate(self.head(f2), size=size, mode="bilinear", align_corners=True)
        if self.training:
            aux = F.interpolate(self.aux(f1), size=size, mode="bilinear", align_corners=True)
            return out, aux
        return out


model = SegNetAux()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + 0.7 * i).view_as(p) * 0.4)

H = W = 12
yy, xx = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
imgs = torch.stack([torch.stack([torch.sin(3 * xx + k), torch.cos(2 * yy - k)]) for k in range(4)])
labels = torch.stack([((xx + 0.3 * k) > 0).long() + ((yy * xx) > 0.2).long() for k in range(4)])
labels[:, 0, :] = 255
print(imgs.shape, labels.shape, torch.bincount(labels[labels != 255]))

crit = nn.CrossEntropyLoss(ignore_index=255)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4, nesterov=True)


def confusion(pred, gt, n=3):
    k = gt != 255
    return torch.bincount(gt[k] * n + pred[k], minlength=n * n).view(n, n)


for epoch in range(4):
    model.train()
    for b in range(2):
        x, y = imgs[2 * b:2 * b + 2], labels[2 * b:2 * b + 2]
        main, aux = model(x)
        loss_main, loss_aux = crit(main, y), crit(aux, y)
        loss = loss_main + 0.4 * loss_aux
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(imgs)
        cm = confusion(out.argmax(1), labels)
    iou = cm.diag() / (cm.sum(0) + cm.sum(1) - cm.diag()).clamp(min=1)
    print(epoch, f"{loss_main.item():.4f} {loss_aux.item():.4f}", isinstance(out, torch.Tensor),
          iou.numpy().round(3), f"{(cm.diag().sum() / cm.sum()).item():.3f}")
print(cm)
print(type(model(imgs[:1])).__name__, model.training, model.head[3].training)
model.train()
print(type(model(imgs[:2])).__name__, len(model(imgs[:2])))
print(opt.state_dict()["param_groups"][0]["nesterov"], len(opt.state_dict()["state"]))
