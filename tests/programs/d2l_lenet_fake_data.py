# d2l.ai 7.6 LeNet on fake 28x28 "Fashion-MNIST" batches (no d2l package, no random data).
import torch
from torch import nn

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))


def init_weights(m):
    if type(m) == nn.Linear or type(m) == nn.Conv2d:
        with torch.no_grad():
            k = torch.arange(m.weight.numel(), dtype=torch.float32)
            m.weight.copy_((torch.sin(k * 0.37) * 0.2).reshape(m.weight.shape))
            m.bias.fill_(0.01)


net.apply(init_weights)
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape: \t', X.shape)
print(net)
print(sum(p.numel() for p in net.parameters()))

# a fake batch: 8 images, stripes whose orientation depends on the class
imgs = torch.arange(28, dtype=torch.float32)
labels = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])
X = torch.stack([torch.cos(imgs[:, None] * (0.2 + 0.1 * c) + imgs[None, :] * 0.05 * c) for c in labels.tolist()])
X = X.unsqueeze(1)
print(X.shape, X.dtype, X[0, 0, :2, :4])


def accuracy(y_hat, y):
    return float((y_hat.argmax(dim=1) == y).sum()) / len(y)


loss = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.9)
for epoch in range(4):
    net.train()
    optimizer.zero_grad()
    y_hat = net(X)
    l = loss(y_hat, labels)
    l.backward()
    optimizer.step()
    print(f'epoch {epoch}: loss {l.item():.4f}, acc {accuracy(y_hat, labels):.3f}')
print(net[0].weight.grad.shape, net[0].weight.grad[0, 0, 0], net[-1].bias.grad)
print(net[3].bias[:4])
with torch.no_grad():
    out = net(X[:2])
print(out.requires_grad, out.shape, out.argmax(1))

# conv arithmetic of the d2l chapter 7.3 (padding and stride)
comp = nn.Conv2d(1, 1, kernel_size=3, padding=1)
print(comp(torch.zeros((1, 1, 8, 8))).shape)
print(nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1))(torch.zeros(1, 1, 8, 8)).shape)
print(nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2)(torch.zeros(1, 1, 8, 8)).shape)
print(nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))(torch.zeros(1, 1, 8, 8)).shape)
pool = nn.MaxPool2d(3)
Xp = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
print(pool(Xp), nn.MaxPool2d(3, padding=1, stride=2)(Xp), nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(Xp))
print(nn.AvgPool2d(2)(Xp), nn.MaxPool2d(3, padding=1, stride=2)(torch.cat((Xp, Xp + 1), 1)))
try:
    net(torch.zeros(1, 1, 32, 32))
except RuntimeError as e:
    print(type(e).__name__, e)
