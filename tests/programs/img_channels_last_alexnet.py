# The "channels_last" performance-tuning recipe applied to a tiny AlexNet-style network:
# model.to(memory_format=torch.channels_last), inputs converted the same way, checking which
# layers keep the NHWC layout (strides printed), size-1 dims, and that results match NCHW.
# AlexNet's LocalResponseNorm and Dropout (eval) are part of the model.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.cos(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.05).view(2, 3, 8, 8)
xc = x.to(memory_format=torch.channels_last)
print(xc.stride(), xc.is_contiguous(), xc.is_contiguous(memory_format=torch.channels_last))

# size-1 dims: which strides does channels_last pick?
for shape in [(1, 1, 4, 4), (2, 3, 1, 1), (1, 3, 4, 4), (4, 1, 2, 3)]:
    t = torch.zeros(shape).to(memory_format=torch.channels_last)
    print(shape, t.stride(), t.is_contiguous(), t.is_contiguous(memory_format=torch.channels_last))

conv = nn.Conv2d(3, 4, 3, padding=1)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-0.3, 0.3, conv.weight.numel()).view_as(conv.weight))
    conv.bias.zero_()
ref = conv(x)
conv = conv.to(memory_format=torch.channels_last)
print(conv.weight.stride(), conv.weight.is_contiguous(memory_format=torch.channels_last), conv.bias.stride())
out = conv(xc)
print(out.stride(), out.is_contiguous(memory_format=torch.channels_last), torch.allclose(out, ref, atol=1e-6))

# layer by layer: does the layout propagate?
for name, layer in [("relu", nn.ReLU()), ("maxpool", nn.MaxPool2d(2)), ("avgpool", nn.AvgPool2d(2)),
                    ("bn", nn.BatchNorm2d(3)), ("add", lambda t: t + 1.0), ("mul", lambda t: t * t),
                    ("interp", lambda t: F.interpolate(t, scale_factor=2)), ("adaptive", nn.AdaptiveAvgPool2d(2))]:
    y = layer(xc)
    print(name, tuple(y.shape), y.stride(), y.is_contiguous(memory_format=torch.channels_last))

# a mini AlexNet
class TinyAlexNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 6, 3, stride=1, padding=1), nn.ReLU(inplace=True),
            nn.LocalResponseNorm(size=3, alpha=1e-2, beta=0.75, k=2.0), nn.MaxPool2d(3, stride=2),
            nn.Conv2d(6, 8, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(3, stride=2))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.classifier = nn.Sequential(nn.Dropout(0.5), nn.Linear(8, 8), nn.ReLU(inplace=True),
                                        nn.Dropout(0.5), nn.Linear(8, num_classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.avgpool(self.features(x)), 1))


net = TinyAlexNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + i).view_as(p) * 0.3)
net.eval()
print(net.features[2])
ref = net(x)
net = net.to(memory_format=torch.channels_last)
got = net(xc)
# (rounded: one logit cancels to 4e-4, where the last bits of sin and pow show in 4 digits)
print(ref.round(decimals=3), torch.allclose(got, ref, atol=1e-6))
f = net.features[:3](xc)
print(f.shape, f[0, :, 0, 0])
print(F.local_response_norm(torch.arange(1., 9.).view(1, 4, 1, 2), 2))
