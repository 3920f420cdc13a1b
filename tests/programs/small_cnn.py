# A small CNN: Conv2d + MaxPool2d + Flatten on random-free images, a few training steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.fc1 = nn.Linear(8 * 3 * 3, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(x.size(0), -1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
print(net)
print(sum(p.numel() for p in net.parameters()))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape) * 0.3)

images = torch.cos(torch.arange(6 * 14 * 14, dtype=torch.float32) * 0.05).view(6, 1, 14, 14)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
print(net.conv1(images).shape, net.pool(net.conv1(images)).shape)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for step in range(5):
    optimizer.zero_grad()
    outputs = net(images)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.4f}")
print(net.conv1.weight.grad.shape, net.conv1.bias.grad)
print(outputs.grad_fn.name(), net.conv1(images).grad_fn.name())
flat = nn.Flatten()(net.pool(net.conv1(images)))
print(flat.shape)
print(F.max_pool2d(torch.arange(16.).view(1, 1, 4, 4), 2))
