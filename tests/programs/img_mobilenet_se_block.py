# A MobileNetV2/V3-style inverted residual with squeeze-and-excitation, on fixed weights:
# 1x1 expand -> depthwise 3x3 (groups=C) -> SE gate (AdaptiveAvgPool + Hardsigmoid) -> 1x1 project,
# ReLU6 / Hardswish activations, BatchNorm, a skip connection; forward + backward + 2 SGD steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SqueezeExcite(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.fc1 = nn.Conv2d(c, c // r, 1)
        self.fc2 = nn.Conv2d(c // r, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = F.hardsigmoid(self.fc2(F.relu(self.fc1(s))))
        return x * s


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, stride, expand):
        super().__init__()
        hid = cin * expand
        self.use_res = stride == 1 and cin == cout
        self.block = nn.Sequential(
            nn.Conv2d(cin, hid, 1, bias=False), nn.BatchNorm2d(hid), nn.ReLU6(inplace=True),
            nn.Conv2d(hid, hid, 3, stride, 1, groups=hid, bias=False), nn.BatchNorm2d(hid), nn.Hardswish(),
            SqueezeExcite(hid),
            nn.Conv2d(hid, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = self.block(x)
        return x + out if self.use_res else out


torch.manual_seed(0)
net = nn.Sequential(InvertedResidual(4, 4, 1, 2), InvertedResidual(4, 6, 2, 2),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3))
with torch.no_grad():
    for i, (name, p) in enumerate(net.named_parameters()):
        if name.endswith("weight") and p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.5)
        elif "bias" in name:
            p.fill_(0.05)
print(net)
print(sum(p.numel() for p in net.parameters()), [tuple(m.weight.shape) for m in net.modules() if isinstance(m, nn.Conv2d) and m.groups > 1])

x = torch.cos(torch.arange(2 * 4 * 6 * 6, dtype=torch.float32) * 0.11).view(2, 4, 6, 6)
y = torch.tensor([0, 2])
feats = net[0](x)
print(feats.shape, feats[0, 0, 0])
print(net[1](feats).shape)
logits = net(x)
loss = F.cross_entropy(logits, y)
print(logits, loss)
loss.backward()
dw = net[0].block[3].weight
print(dw.grad.shape, dw.grad[0, 0])
print(net[0].block[6].fc2.bias.grad)
print(net[4].weight.grad)

opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(2):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), net[1].block[1].running_mean[:3])

net.eval()
with torch.no_grad():
    out = net(x)
print(out, out.argmax(1))
print(F.relu6(torch.tensor([-1., 3., 7.])), F.hardswish(torch.tensor([-4., -1., 0., 1., 4.])), nn.Hardsigmoid())
