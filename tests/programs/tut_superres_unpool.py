# Two classic image models, scaled down: the SuperResolutionNet from the ONNX export tutorial
# (Conv2d stack + nn.PixelShuffle(upscale_factor), init.calculate_gain('relu')), trained a few
# steps with MSELoss against a 2x target; and a SegNet-style convolutional autoencoder that
# keeps MaxPool2d(return_indices=True) indices for nn.MaxUnpool2d in the decoder.
import torch
import torch.nn as nn
import torch.nn.init as init
import torch.nn.functional as F


class SuperResolutionNet(nn.Module):
    def __init__(self, upscale_factor, inplace=False):
        super().__init__()
        self.relu = nn.ReLU(inplace=inplace)
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        return self.pixel_shuffle(self.conv3(x))

    def _initialize_weights(self):
        gain = init.calculate_gain('relu')
        with torch.no_grad():
            for i, conv in enumerate((self.conv1, self.conv2, self.conv3)):
                w = conv.weight
                w.copy_(torch.cos(torch.arange(w.numel(), dtype=torch.float32) * 0.41 + i).view(w.shape) * 0.1 * (gain if i < 2 else 1))
                conv.bias.zero_()


print(init.calculate_gain('relu'), init.calculate_gain('leaky_relu', 0.2), init.calculate_gain('tanh'))
ps, pu = nn.PixelShuffle(2), nn.PixelUnshuffle(2)
t = torch.arange(16.).view(1, 4, 2, 2)
print(ps, ps(t), torch.equal(pu(ps(t)), t), F.pixel_shuffle(t, 2).shape)
model = SuperResolutionNet(upscale_factor=2)
print(model)
lowres = torch.sin(torch.arange(36, dtype=torch.float32) * 0.3).view(1, 1, 6, 6)
target = F.interpolate(lowres, scale_factor=2, mode='nearest')
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(3):
    opt.zero_grad()
    out = model(lowres)
    loss = F.mse_loss(out, target)
    loss.backward()
    opt.step()
    print(f"sr step {step} loss {loss.item():.5f} out {tuple(out.shape)} {out.grad_fn.name()}")


class ConvAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(1, 3, 3, padding=1)
        self.pool = nn.MaxPool2d(2, stride=2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, stride=2)
        self.dec = nn.Conv2d(3, 1, 3, padding=1)

    def forward(self, x):
        x = F.relu(self.enc(x))
        size = x.size()
        x, indices = self.pool(x)
        x = self.unpool(x, indices, output_size=size)
        return self.dec(x), indices


pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
inp = torch.tensor([[[[1., 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]])
output, indices = pool(inp)
print(output, indices, indices.dtype)
print(unpool, unpool(output, indices))
print(unpool(output, indices, output_size=torch.Size([1, 1, 5, 5])))
ae = ConvAutoencoder()
with torch.no_grad():
    for i, p in enumerate(ae.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view(p.shape) * 0.3)
opt = torch.optim.SGD(ae.parameters(), lr=0.1)
img = torch.cos(torch.arange(2 * 36, dtype=torch.float32) * 0.25).view(2, 1, 6, 6)
for step in range(3):
    opt.zero_grad()
    recon, idx = ae(img)
    loss = F.mse_loss(recon, img)
    loss.backward()
    opt.step()
    print(f"ae step {step} loss {loss.item():.5f}")
print(idx[0, 0], recon.grad_fn.name(), ae.enc.weight.grad[0, 0])
