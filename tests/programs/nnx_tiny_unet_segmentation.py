# A tiny U-Net for per-pixel classification, the way segmentation tutorials build it: conv blocks
# with padding='same' + BatchNorm2d + ReLU, MaxPool2d down, ConvTranspose2d / nn.Upsample up,
# skip connections with torch.cat, Dropout2d, a 1x1 head, and CrossEntropyLoss over (N, C, H, W)
# with ignore_index for unlabelled pixels. Deterministic init; a few Adam steps; losses printed.
import torch
import torch.nn as nn
import torch.nn.functional as F


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding="same", bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.enc1 = block(1, 4)
        self.enc2 = block(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.up_t = nn.ConvTranspose2d(8, 4, kernel_size=2, stride=2)
        self.up_i = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.dec = block(4 + 4 + 8, 4)
        self.drop = nn.Dropout2d(0.25)
        self.head = nn.Conv2d(4, classes, 1)

    def forward(self, x):
        s1 = self.enc1(x)
        bottom = self.enc2(self.pool(s1))
        up = torch.cat([s1, self.up_t(bottom), self.up_i(bottom)], dim=1)
        return self.head(self.drop(self.dec(up)))


def det_init(m):
    if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
        with torch.no_grad():
            m.weight.copy_(torch.cos(torch.arange(m.weight.numel(), dtype=torch.float32) * 0.61).view(m.weight.shape) * 0.3)
        if m.bias is not None:
            nn.init.zeros_(m.bias)


model = TinyUNet()
model.apply(det_init)
print(model)
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_children()])

img = torch.linspace(0, 1, 2 * 6 * 6).view(2, 1, 6, 6)
mask = (torch.arange(2 * 6 * 6).view(2, 6, 6) // 7) % 3
mask[:, 0, :] = 255  # unlabelled border row
crit = nn.CrossEntropyLoss(ignore_index=255)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
model.eval()  # Dropout2d off, BatchNorm uses running stats: deterministic forward
with torch.no_grad():
    print(model(img).shape, f"{crit(model(img), mask).item():.5f}")
model.train()
model.drop.p = 0.0  # keep the training steps deterministic
for step in range(4):
    opt.zero_grad()
    logits = model(img)
    loss = crit(logits, mask)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", logits.grad_fn.name(), f"{model.up_t.weight.grad.abs().sum().item():.5f}")
model.eval()
with torch.no_grad():
    pred = model(img).argmax(dim=1)
valid = mask != 255
print(pred[0], ((pred == mask) & valid).sum().item(), valid.sum().item())
print(model.enc1[1].running_mean, model.enc2[1].num_batches_tracked)
