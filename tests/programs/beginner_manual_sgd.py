# Beginner forum code: updating parameters through .data and zeroing .grad.data by hand.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
for i, p in enumerate(net.parameters()):
    p.data = torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.size()) * 0.3

x = torch.linspace(-1, 1, 40).view(10, 4)
y = x.sum(dim=1, keepdim=True) ** 2
criterion = nn.MSELoss()
lr = 0.05
for epoch in range(30):
    out = net(x)
    loss = criterion(out, y)
    loss.backward()
    for p in net.parameters():
        p.data -= lr * p.grad.data
        p.grad.data.zero_()
    if epoch % 10 == 0:
        print("epoch %d loss %.5f" % (epoch, loss.item()))
print(net[0].weight.grad)
print(net[2].bias.data, net[2].bias.requires_grad)
print(type(net[0].weight.data).__name__, net[0].weight.data.requires_grad)
