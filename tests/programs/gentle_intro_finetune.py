# "A Gentle Introduction to torch.autograd": freeze a pretrained network, replace its classifier.
import torch
from torch import nn, optim


class TinyResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, kernel_size=3, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 8, kernel_size=3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, num_classes)

    def forward(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = x + self.relu(self.conv2(x))          # a residual connection
        x = self.pool(x)
        return self.fc(torch.flatten(x, 1))


def deterministic_(module):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape) * 0.2)


model = TinyResNet()
deterministic_(model)
data = torch.cos(torch.arange(1 * 3 * 16 * 16, dtype=torch.float32) * 0.01).reshape(1, 3, 16, 16)
labels = torch.sin(torch.arange(1000, dtype=torch.float32)).reshape(1, 1000)

prediction = model(data)
loss = (prediction - labels).sum()
print(f"{loss.item():.3f}", prediction.shape)
loss.backward()
print(model.conv1.weight.grad.shape, f"{model.conv1.weight.grad.abs().sum().item():.3f}")

optim_all = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
optim_all.step()

for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(8 * 4 * 4, 10)
deterministic_(model.fc)
print(model.fc)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), "trainable of",
      sum(p.numel() for p in model.parameters()))
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

conv_before = model.conv1.weight.clone()
fc_before = model.fc.weight.clone()
out = model(data)
print(out.requires_grad, out.grad_fn.name())
loss = out.pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(torch.equal(conv_before, model.conv1.weight), torch.equal(fc_before, model.fc.weight))
print(model.conv1.weight.grad is None, model.fc.weight.grad.shape)
