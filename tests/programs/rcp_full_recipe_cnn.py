# A complete "modern recipe" image-classification script (timm/torchvision references style):
# DataLoader with a collate_fn doing mixup, label smoothing, AdamW with no-decay groups,
# warmup + cosine via SequentialLR stepped per batch, grad clipping, EMA via AveragedModel.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
from torch.utils.data import DataLoader, Dataset


class Shapes(Dataset):
    def __len__(self):
        return 24

    def __getitem__(self, i):
        g = torch.arange(36, dtype=torch.float32).view(1, 6, 6)
        img = torch.sin(g * (0.1 + 0.05 * (i % 4)) + i * 0.3)
        return img, i % 4


class MixupCollate:
    def __init__(self, num_classes, lam=0.8, smoothing=0.1):
        self.num_classes, self.lam, self.smoothing = num_classes, lam, smoothing

    def __call__(self, batch):
        x = torch.stack([b[0] for b in batch])
        y = torch.tensor([b[1] for b in batch])
        soft = F.one_hot(y, self.num_classes).float() * (1 - self.smoothing) + self.smoothing / self.num_classes
        x = self.lam * x + (1 - self.lam) * x.flip(0)
        return x, self.lam * soft + (1 - self.lam) * soft.flip(0)


model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(),
                      nn.Conv2d(4, 4, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 4))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + 0.4 * i).view_as(p))

decay = [p for n, p in model.named_parameters() if p.ndim > 1]
no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}],
                        lr=0.02)
loader = DataLoader(Shapes(), batch_size=8, shuffle=False, collate_fn=MixupCollate(4), drop_last=True)
epochs = 4
steps = epochs * len(loader)
sched = SequentialLR(opt, [LinearLR(opt, start_factor=0.1, total_iters=3),
                           CosineAnnealingLR(opt, T_max=steps - 3, eta_min=1e-4)], milestones=[3])
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
crit = nn.CrossEntropyLoss()

for epoch in range(epochs):
    model.train()
    losses, norms = [], []
    for xb, yb in loader:
        loss = crit(model(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        norms.append(nn.utils.clip_grad_norm_(model.parameters(), 1.0).item())
        opt.step()
        sched.step()
        ema.update_parameters(model)
        losses.append(loss.item())
    print(epoch, f"{sum(losses) / len(losses):.4f}", f"{max(norms):.4f}", f"{sched.get_last_lr()[0]:.6f}")

ds = Shapes()
x = torch.stack([ds[i][0] for i in range(len(ds))])
y = torch.tensor([ds[i][1] for i in range(len(ds))])
model.eval()
ema.eval()
with torch.no_grad():
    for name, net in [("model", model), ("ema", ema)]:
        logits = net(x)
        print(name, f"{F.cross_entropy(logits, y).item():.4f}", (logits.argmax(1) == y).sum().item())
print(ema.n_averaged.item(), ema.module[1].num_batches_tracked.item(), model[1].num_batches_tracked.item())
print(opt.state_dict()["param_groups"][1]["params"], [round(g["lr"], 6) for g in opt.param_groups])
