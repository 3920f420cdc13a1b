# A tiny 3-D CNN for volumes / video clips (N, C, D, H, W), as in medical-imaging and action
# recognition tutorials: Conv3d + BatchNorm3d + ReLU + MaxPool3d, AdaptiveAvgPool3d head,
# ConvTranspose3d + trilinear upsampling for a decoder, AvgPool3d, Dropout3d in eval, and
# a 3-D affine_grid / grid_sample warp. Fixed weights; values, shapes, grads printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

vol = torch.sin(torch.arange(2 * 1 * 4 * 6 * 6, dtype=torch.float32) * 0.13).view(2, 1, 4, 6, 6)

c3 = nn.Conv3d(1, 3, kernel_size=(2, 3, 3), stride=(1, 2, 1), padding=(0, 1, 1))
with torch.no_grad():
    c3.weight.copy_(torch.linspace(-1, 1, c3.weight.numel()).view_as(c3.weight))
    c3.bias.copy_(torch.tensor([0.5, -0.5, 0.0]))
print(c3)
y = c3(vol)
print(y.shape, y.grad_fn.name(), y[0, :, 0, 0])
print(F.conv3d(vol, torch.ones(2, 1, 1, 2, 2), stride=2).shape)
print(nn.Conv3d(4, 8, 3, padding="same", groups=2, bias=False).weight.shape)


class Tiny3D(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv3d(1, 4, 3, padding=1, bias=False), nn.BatchNorm3d(4), nn.ReLU(),
                                      nn.MaxPool3d(2), nn.Dropout3d(0.2))
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


net = Tiny3D()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.5)
print(net)
net.features[4].eval()  # keep the dropout mask out of the comparison
logits = net(vol)
loss = F.cross_entropy(logits, torch.tensor([0, 1]))
loss.backward()
print(logits, loss)
print(net.features[0].weight.grad.flatten(1).sum(1), net.features[1].weight.grad, net.features[1].running_mean)
net.eval()
print(net(vol))

# pooling variants
print(F.max_pool3d(vol, (1, 2, 2)).shape, F.avg_pool3d(vol, 2)[0, 0])
mp, idx = F.max_pool3d(vol, 2, return_indices=True)
print(idx[0, 0], F.max_unpool3d(mp, idx, 2).shape)
print(F.adaptive_max_pool3d(vol, (1, 2, 2))[1, 0])

# decoder: transpose conv and trilinear upsample
up = nn.ConvTranspose3d(1, 1, 2, stride=2)
with torch.no_grad():
    up.weight.fill_(0.25)
    up.bias.zero_()
print(up(vol[:, :, :2, :2, :2]).shape, up(vol[:1, :, 1:2, 1:2, 1:2]).flatten())
print(F.interpolate(vol[:1, :, :2, :2, :2], scale_factor=2, mode="trilinear", align_corners=False)[0, 0, 1])

# 3-D affine warp: a small translation
theta = torch.tensor([[[1., 0., 0., 0.5], [0., 1., 0., 0.], [0., 0., 1., 0.]]])
grid = F.affine_grid(theta, (1, 1, 2, 3, 3), align_corners=False)
print(grid.shape, F.grid_sample(vol[:1, :, :2, :3, :3], grid, align_corners=False)[0, 0, 0])
try:
    F.conv3d(torch.ones(1, 1, 4, 4), torch.ones(1, 1, 2, 2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
