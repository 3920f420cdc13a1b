# Tiny U-Net (Conv-BN-ReLU blocks, MaxPool2d down, ConvTranspose2d up, torch.cat skips) trained a few
# SGD steps with nn.CrossEntropyLoss(weight=..., ignore_index=255) on a synthetic sin/cos image.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    def forward(self, x):
        return self.net(x)


class UNet(nn.Module):
    def __init__(self, cin=1, ncls=3, base=4):
        super().__init__()
        self.inc = DoubleConv(cin, base)
        self.down1 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base, base * 2))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base * 2, base * 4))
        self.up1 = nn.ConvTranspose2d(base * 4, base * 2, 2, stride=2)
        self.conv1 = DoubleConv(base * 4, base * 2)
        self.up2 = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.conv2 = DoubleConv(base * 2, base)
        self.outc = nn.Conv2d(base, ncls, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        u = self.conv1(torch.cat([x2, self.up1(x3)], dim=1))
        u = self.conv2(torch.cat([x1, self.up2(u)], dim=1))
        return self.outc(u)


torch.manual_seed(0)
model = UNet()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        n = p.numel()
        p.copy_(torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + i).view_as(p) * (1.0 / (p[0].numel() ** 0.5)))
print(sum(p.numel() for p in model.parameters()), len(model.state_dict()))
print([k for k in model.state_dict().keys() if "num_batches" in k][:3])

H = W = 16
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
img = (torch.sin(xx / 3) + torch.cos(yy / 4)).view(1, 1, H, W).repeat(2, 1, 1, 1)
img[1] = img[1].flip(-1)
mask = torch.zeros(2, H, W, dtype=torch.long)
mask[img[:, 0] > 0.5] = 1
mask[img[:, 0] < -0.5] = 2
mask[:, :2, :2] = 255
print(mask.shape, torch.unique(mask).tolist(), (mask == 255).sum().item())

criterion = nn.CrossEntropyLoss(weight=torch.tensor([0.5, 1.0, 2.0]), ignore_index=255)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
losses = []
for step in range(12):
    model.train()
    opt.zero_grad()
    out = model(img)
    loss = criterion(out, mask)
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if step % 3 == 0:
        print(step, out.shape, f"{loss.item():.4f}")
print("decreased:", losses[-1] < losses[0])
print(model.inc.net[1].num_batches_tracked, model.outc.weight.grad.shape)
model.eval()
with torch.no_grad():
    pred = model(img).argmax(dim=1)
print(pred.shape, pred.dtype, out.grad_fn.name())
