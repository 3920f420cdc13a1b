# A ResNet-50-style Bottleneck with a strided 1x1 downsample shortcut, a ResNet stem
# (7x7/2 conv + 3x3/2 max pool), a torchsummary-like table built from forward hooks
# (output shapes, parameter counts), zero-init of the last BN gamma, one Adam step with
# weight decay and the resulting parameter/buffer changes. Fixed weights, no RNG.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * self.expansion, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


stem = nn.Sequential(nn.Conv2d(3, 4, 7, stride=2, padding=3, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                     nn.MaxPool2d(kernel_size=3, stride=2, padding=1))
down = nn.Sequential(nn.Conv2d(4, 8, 1, stride=2, bias=False), nn.BatchNorm2d(8))
model = nn.Sequential(stem, Bottleneck(4, 2, stride=2, downsample=down), Bottleneck(8, 2),
                      nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(8, 3))
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view_as(p) * 0.4)
    model[5].bias.copy_(torch.tensor([0.1, -0.1, 0.0]))
for m in model.modules():
    if isinstance(m, Bottleneck):
        nn.init.zeros_(m.bn3.weight)
model[2].bn3.weight.data.fill_(0.5)

rows = []
hooks = [m.register_forward_hook(lambda mod, inp, out, n=n: rows.append((n, type(mod).__name__, tuple(out.shape),
                                                                         sum(p.numel() for p in mod.parameters(recurse=False)))))
         for n, m in model.named_modules() if len(list(m.children())) == 0]
x = torch.cos(torch.arange(2 * 3 * 16 * 16, dtype=torch.float32) * 0.01).view(2, 3, 16, 16)
out = model(x)
for h in hooks:
    h.remove()
for r in rows:
    print(f"{r[0]:<18}{r[1]:<18}{str(r[2]):<18}{r[3]}")
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(total, trainable, len(model.state_dict()), sum(b.numel() for b in model.buffers()))
print(out)

opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
loss = F.cross_entropy(out, torch.tensor([1, 2]))
loss.backward()
print(loss, model[1].bn3.weight.grad, model[1].conv3.weight.grad.abs().sum())
before = model[5].weight.detach().clone()
opt.step()
print((model[5].weight - before).abs().max(), model[1].bn3.weight, model[1].downsample[1].running_mean)
print(model[0][1].num_batches_tracked, opt.state_dict()["state"][0]["step"])
model.eval()
with torch.no_grad():
    print(model(x).softmax(1))
