# Training-loop details of segmentation toolkits: channels_last memory format, no-weight-decay param
# groups for norm/bias, PolynomialLR / LambdaLR "poly" schedule, grad clipping, BCE binary seg.
import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=2, dilation=2, groups=8, bias=False), nn.GroupNorm(2, 8), nn.ReLU(),
    nn.Dropout2d(0.1), nn.Conv2d(8, 1, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.4)
net = net.to(memory_format=torch.channels_last)
print(net[0].weight.is_contiguous(), net[0].weight.is_contiguous(memory_format=torch.channels_last))
print(net[0].weight.stride())

H = W = 8
yy, xx = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
img = torch.stack([torch.sin(3 * xx), torch.cos(2 * yy), xx * yy]).unsqueeze(0).repeat(2, 1, 1, 1)
img[1] = img[1] * -1
mask = ((xx ** 2 + yy ** 2) < 0.5).float().expand(2, 1, H, W)
img = img.contiguous(memory_format=torch.channels_last)
print(img.shape, img.stride(), img.is_contiguous())

decay, no_decay = [], []
for name, p in net.named_parameters():
    (no_decay if p.ndim <= 1 or name.endswith(".bias") else decay).append(name)
print(decay, no_decay)
params = dict(net.named_parameters())
opt = torch.optim.AdamW([{"params": [params[n] for n in decay], "weight_decay": 1e-2},
                         {"params": [params[n] for n in no_decay], "weight_decay": 0.0}], lr=1e-2)
max_iter = 10
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda it: (1 - it / max_iter) ** 0.9)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
net.train()
net[6].p = 0.0
for it in range(max_iter):
    out = net(img)
    loss = crit(out, mask)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
    opt.step()
    sched.step()
    if it % 3 == 0:
        print(it, f"{loss.item():.4f}", f"{gn.item():.3f}", [f"{lr:.5f}" for lr in sched.get_last_lr()])
print(out.shape, out.is_contiguous(memory_format=torch.channels_last))

opt2 = torch.optim.SGD(net.parameters(), lr=0.1)
poly = torch.optim.lr_scheduler.PolynomialLR(opt2, total_iters=4, power=2.0)
lrs = []
for _ in range(6):
    opt2.step()
    poly.step()
    lrs.append(round(poly.get_last_lr()[0], 6))
print(lrs)
pred = (torch.sigmoid(out) > 0.5).to(torch.uint8) * 255
print(pred.dtype, pred.unique())
try:
    crit(out, mask[:, 0])
except Exception as e:
    print(type(e).__name__, e)
try:
    F.binary_cross_entropy(torch.sigmoid(out), mask * 2)
except Exception as e:
    print(type(e).__name__, e)
