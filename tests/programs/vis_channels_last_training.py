# Training a small ResNet-style CNN in channels_last, as the PyTorch performance-tuning guide
# recommends: model.to(memory_format=torch.channels_last), inputs converted too, then checking
# which intermediate activations, gradients and BN/conv outputs keep NHWC strides, reflect /
# circular padding convs, bilinear upsampling and pixel shuffle in a decoder, and that the loss
# curve equals the NCHW run.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, padding_mode="reflect", bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, padding_mode="circular", groups=2, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        return F.relu(x + self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x))))))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.block = Block(8)
        self.pool = nn.AvgPool2d(2, ceil_mode=True)
        self.up = nn.Sequential(nn.Conv2d(8, 12, 1), nn.PixelShuffle(2))
        self.head = nn.Conv2d(3, 1, 3, padding=1)

    def forward(self, x):
        h = self.block(self.stem(x))
        h = self.up(self.pool(h))
        h = F.interpolate(h, size=x.shape[-2:], mode="bilinear", align_corners=False)
        return self.head(h)


def make():
    net = Net()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.25)
    return net


x = torch.cos(torch.arange(2 * 3 * 10 * 10, dtype=torch.float32) * 0.11).view(2, 3, 10, 10)
target = torch.sin(x.sum(1, keepdim=True))

cl = torch.channels_last
net = make().to(memory_format=cl)
print({n: p.is_contiguous(memory_format=cl) for n, p in net.named_parameters() if p.dim() == 4})
xc = x.to(memory_format=cl)
acts = {}
for name, m in net.named_modules():
    if isinstance(m, (nn.Conv2d, nn.BatchNorm2d, nn.AvgPool2d, nn.PixelShuffle)):
        m.register_forward_hook(lambda mod, i, o, name=name: acts.__setitem__(name, (tuple(o.shape), o.is_contiguous(memory_format=cl), o.is_contiguous())))
out = net(xc)
for k, v in acts.items():
    print(k, v)
print(out.shape, out.is_contiguous(memory_format=cl), out.stride())

ref = make()
losses = {}
for tag, model, inp in [("nchw", ref, x), ("nhwc", net, xc)]:
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    hist = []
    for step in range(12):
        opt.zero_grad()
        loss = F.mse_loss(model(inp), target)
        loss.backward()
        opt.step()
        hist.append(round(loss.item(), 4))
    losses[tag] = hist
    print(tag, hist[::3])
print(all(abs(a - b) < 1e-3 for a, b in zip(losses["nchw"], losses["nhwc"])))
print(net.stem.weight.grad.is_contiguous(memory_format=cl), net.block.bn1.running_mean[:3])

xg = xc.clone().requires_grad_(True)
net.eval()
net(xg).sum().backward()
print(xg.grad.shape, xg.grad.is_contiguous(memory_format=cl), f"{xg.grad.abs().sum().item():.3f}")
