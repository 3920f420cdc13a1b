# SimCLR on tiny images with deterministic "augmentations" (crop + F.interpolate resize, horizontal flip,
# brightness/contrast jitter, grayscale mix), a conv encoder with BatchNorm2d and AdaptiveAvgPool2d,
# a projection MLP, NT-Xent via F.cross_entropy on the masked similarity matrix, LARS-free SGD + cosine LR.
import torch
import torch.nn as nn
import torch.nn.functional as F

imgs = torch.stack([torch.sin(torch.arange(3 * 8 * 8, dtype=torch.float32).view(3, 8, 8) * (0.05 + 0.03 * i)) for i in range(4)])
print(imgs.shape)


def augment(x, k):
    top, left = k % 2, (k + 1) % 3
    crop = x[:, :, top:top + 6, left:left + 6]
    x = F.interpolate(crop, size=(8, 8), mode="bilinear", align_corners=False)
    if k % 2 == 1:
        x = torch.flip(x, dims=[3])
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * (1.0 + 0.1 * k) + mean + 0.05 * k
    gray = (0.299 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2]).unsqueeze(1)
    return torch.lerp(x, gray.expand_as(x), 0.2 * (k % 3))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
            nn.Conv2d(4, 6, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(6), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.proj = nn.Sequential(nn.Linear(6, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 4))

    def forward(self, x):
        h = self.conv(x)
        return h, self.proj(h)


def nt_xent(z1, z2, tau):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.shape[0]
    logits = z @ z.T / tau
    logits.fill_diagonal_(float("-inf"))
    labels = (torch.arange(2 * n) + n) % (2 * n)
    return F.cross_entropy(logits, labels)


model = Encoder()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        if p.dim() > 1:
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view(p.shape) * 0.5)
        elif name.endswith("bias"):
            p.copy_(torch.linspace(-0.1, 0.1, p.numel()))
print(sum(p.numel() for p in model.parameters()), [k for k in model.state_dict() if "running" in k][:2])

a1, a2 = augment(imgs, 1), augment(imgs, 2)
print(a1.shape, a1[0, 0, 0, :4].round(decimals=4), a2[1, 2, 3, :4].round(decimals=4))
h, z = model(a1)
print(h.shape, z.shape, z.grad_fn.name())

opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9, weight_decay=1e-6)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
for epoch in range(10):
    v1, v2 = augment(imgs, epoch % 3), augment(imgs, epoch % 3 + 1)
    loss = nt_xent(model(v1)[1], model(v2)[1], tau=0.5)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 3 == 0:
        print(epoch, f"{loss.item():.4f}", f"{sched.get_last_lr()[0]:.4f}")

model.eval()
with torch.no_grad():
    f1 = F.normalize(model(augment(imgs, 0))[0], dim=1)
    f2 = F.normalize(model(augment(imgs, 1))[0], dim=1)
    sim = f1 @ f2.T
    print(sim.shape, sim.argmax(dim=1), model.conv[1].num_batches_tracked)
    print(f"{model.conv[1].running_var.mean().item():.2f}")  # (ten SGD steps amplify last-bit noise)
