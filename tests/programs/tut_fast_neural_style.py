# pytorch/examples fast_neural_style, scaled down: the TransformerNet (ConvLayer with
# ReflectionPad2d, InstanceNorm2d(affine=True), ResidualBlock, UpsampleConvLayer using
# F.interpolate(mode='nearest')), the batched gram_matrix with bmm, normalize_batch, and a few
# Adam steps on content + style losses computed through a frozen feature net.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super().__init__()
        self.reflection_pad = nn.ReflectionPad2d(kernel_size // 2)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        return self.conv2d(self.reflection_pad(x))


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = nn.InstanceNorm2d(channels, affine=True)
        self.relu = nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        return out + residual


class UpsampleConvLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super().__init__()
        self.upsample = upsample
        self.reflection_pad = nn.ReflectionPad2d(kernel_size // 2)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = F.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
        return self.conv2d(self.reflection_pad(x_in))


class TransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = ConvLayer(3, 4, kernel_size=5, stride=1)
        self.in1 = nn.InstanceNorm2d(4, affine=True)
        self.conv2 = ConvLayer(4, 6, kernel_size=3, stride=2)
        self.in2 = nn.InstanceNorm2d(6, affine=True)
        self.res1 = ResidualBlock(6)
        self.deconv1 = UpsampleConvLayer(6, 4, kernel_size=3, stride=1, upsample=2)
        self.in4 = nn.InstanceNorm2d(4, affine=True)
        self.deconv3 = ConvLayer(4, 3, kernel_size=5, stride=1)
        self.relu = nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.relu(self.in4(self.deconv1(y)))
        return self.deconv3(y)


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    return features.bmm(features_t) / (ch * h * w)


def normalize_batch(batch):
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


x = (torch.sin(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.07) * 127 + 128).view(2, 3, 8, 8)
style = (torch.cos(torch.arange(3 * 8 * 8, dtype=torch.float32) * 0.19) * 127 + 128).view(1, 3, 8, 8)
print(gram_matrix(x / 255)[0], gram_matrix(x).shape)
print(normalize_batch(x.clone())[0, :, 0, 0])
features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 4, 3, padding=1)).requires_grad_(False)
with torch.no_grad():
    for i, p in enumerate(features.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view(p.shape) * 0.3)
gram_style = gram_matrix(features(normalize_batch(style.clone())))

inorm = nn.InstanceNorm2d(3, affine=True)
print(inorm, inorm.weight, inorm.running_mean)
y = inorm(x)
print(y.mean(dim=(2, 3)).abs().max().item() < 1e-5, y.var(dim=(2, 3), unbiased=False)[0])
up = F.interpolate(x[:, :1, :2, :2], scale_factor=2, mode='nearest')
print(up[0, 0])

transformer = TransformerNet()
with torch.no_grad():
    for i, (name, p) in enumerate(transformer.named_parameters()):
        if ".in" in "." + name or name.startswith("in"):
            p.fill_(1.0) if name.endswith("weight") else p.fill_(0.0)
        else:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view(p.shape) * 0.2)
print(transformer.res1)
optimizer = torch.optim.Adam(transformer.parameters(), 1e-2)
mse_loss = torch.nn.MSELoss()
for step in range(3):
    optimizer.zero_grad()
    y = transformer(x)
    y = normalize_batch(y)
    xn = normalize_batch(x.clone())
    features_y, features_x = features(y), features(xn)
    content_loss = 1e0 * mse_loss(features_y, features_x)
    style_loss = 1e3 * mse_loss(gram_matrix(features_y), gram_style.expand(2, -1, -1))
    total_loss = content_loss + style_loss
    total_loss.backward()
    optimizer.step()
    print(f"step {step} content {content_loss.item():.4f} style {style_loss.item():.4f} out {tuple(y.shape)}")
print(transformer.in1.weight.grad, transformer.deconv3.conv2d.bias)
