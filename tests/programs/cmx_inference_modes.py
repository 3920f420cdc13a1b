# Serving with a compiled model: eval() + torch.no_grad() / torch.inference_mode(), then back to
# train(); outputs' requires_grad, grad_fn presence and values match the uncompiled model.
import torch
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 4, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        h = torch.relu(self.bn(self.conv(x)))
        h = self.drop(h.mean(-1))
        return self.head(h)


torch.manual_seed(0)
model = ConvNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view(p.shape) * 0.5)
x = torch.sin(torch.linspace(0, 9, 40)).view(4, 2, 5)
compiled = torch.compile(model)

model.eval()
print(compiled.training, model.training)
with torch.no_grad():
    y = compiled(x)
print(y.requires_grad, y.grad_fn is None, tuple(y.shape))
print(torch.round(y, decimals=4))
with torch.inference_mode():
    y2 = compiled(x)
print(y2.requires_grad, torch.is_inference(y2), torch.allclose(y, y2))
y3 = compiled(x)
print(y3.requires_grad, y3.grad_fn is not None, torch.allclose(y, y3))
print(torch.allclose(model(x), y3))

compiled.train()
print(compiled.training, model.training, model.bn.training)
before = model.bn.running_mean.clone()
model.drop.p = 0.0
yt = compiled(x)
print(torch.round(yt, decimals=4))
print(torch.round(model.bn.running_mean, decimals=4), model.bn.num_batches_tracked)
print(not torch.equal(before, model.bn.running_mean))
yt.pow(2).sum().backward()
print(torch.round(model.head.weight.grad, decimals=4))

compiled.eval()
with torch.no_grad():
    ye = compiled(x[:1])
print(tuple(ye.shape), torch.allclose(ye, model(x[:1])))
