# Global pooling heads and the "replace the classifier with nn.Identity()" feature-extractor trick:
# AdaptiveAvgPool2d/AdaptiveMaxPool2d to 1x1 and to odd sizes (return_indices), AdaptiveAvgPool1d,
# nn.Identity accepting any args, Flatten, and gradients through the pooling.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = (torch.arange(2 * 2 * 5 * 7, dtype=torch.float32) * 13 % 71).view(2, 2, 5, 7)
print(nn.AdaptiveAvgPool2d(1)(x).flatten(1))
print(nn.AdaptiveAvgPool2d((1, 1))(x).shape, F.adaptive_avg_pool2d(x, (2, 3))[0, 0])
print(nn.AdaptiveAvgPool2d((3, None))(x).shape)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


net = TinyNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.shape) * 0.2)
print(net(x))
print(net)
net.fc = nn.Identity()
feats = net(x)
print(net.fc, feats.shape, feats.grad_fn.name())
ident = nn.Identity(54, unused_argument=0.1)
print(ident, ident(x) is x)

# AdaptiveAvgPool1d on (N, C, L)
seq = torch.arange(10.).view(1, 2, 5)
print(nn.AdaptiveAvgPool1d(2)(seq), nn.AdaptiveAvgPool1d(3)(seq))
print(nn.AdaptiveAvgPool1d(2), nn.AdaptiveMaxPool1d(2)(seq))

# gradient through adaptive avg pooling with overlapping bins
w = torch.ones(1, 1, 5, 5, requires_grad=True)
F.adaptive_avg_pool2d(w, 3).sum().backward()
print(w.grad[0, 0])

# adaptive max pooling: where did each max come from?
amp = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)
out, idx = amp(x)
print(amp, out[0, 0], idx[0, 0])
print(nn.AdaptiveMaxPool2d(1)(x).flatten(1))
print(F.adaptive_max_pool2d(x, (5, 7)).equal(x))
w = x.clone().requires_grad_()
nn.AdaptiveMaxPool2d(2)(w).sum().backward()
print(w.grad[0, 0], w.grad.sum())
