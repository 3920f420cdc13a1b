# A ResNet basic block: Conv2d + BatchNorm2d + ReLU with a skip, AdaptiveAvgPool2d, train vs eval stats.
import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


class TinyResNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3, padding=1)
        self.block = BasicBlock(4)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, num_classes)

    def forward(self, x):
        x = self.avgpool(self.block(self.stem(x)))
        return self.fc(torch.flatten(x, 1))


model = TinyResNet()
print(model.block)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view(p.shape) * 0.3)
x = torch.cos(torch.arange(2 * 3 * 6 * 6, dtype=torch.float32) * 0.07).view(2, 3, 6, 6)
out = model(x)
print(out)
print(model.block.bn1.running_mean, model.block.bn1.num_batches_tracked)
out.sum().backward()
print(model.block.bn1.weight.grad)
model.eval()
print(model(x))
print([n for n, _ in model.block.bn1.named_buffers()])
print(nn.BatchNorm1d(3)(torch.arange(6.).view(2, 3)))
