# Explaining a small CNN, tutorial style: a vanilla saliency map (input.grad.abs().amax over
# channels), Grad-CAM via a forward hook that keeps the activation and a tensor hook that keeps
# its gradient, the CAM upsampled with bilinear interpolation and min-max normalised, and
# SmoothGrad-free "gradient x input" attribution. Fixed weights, no RNG.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 6, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        return self.head(x.mean(dim=(2, 3)))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p) * 0.4)
net.eval()

img = torch.linspace(0, 1, 3 * 8 * 8).view(1, 3, 8, 8).sin()
x = img.clone().requires_grad_(True)
scores = net(x)
cls = scores.argmax(dim=1).item()
print(scores, cls)
scores[0, cls].backward()
sal = x.grad.abs().amax(dim=1)
print(sal.shape, sal[0, :2])
print(f"{(x.grad * x).sum().item():.6f} {scores[0, cls].item():.6f}")  # (float32: 7 digits hold)

# Grad-CAM on conv2
store = {}


def fwd_hook(module, inp, out):
    store["act"] = out
    out.register_hook(lambda g: store.__setitem__("grad", g))


h = net.conv2.register_forward_hook(fwd_hook)
net.zero_grad()
out = net(img)
out[0, 1].backward()
h.remove()
act, grad = store["act"], store["grad"]
print(act.shape, grad.shape, act.grad_fn.name(), grad.requires_grad)
weights = grad.mean(dim=(2, 3), keepdim=True)
print(weights.flatten())
cam = F.relu((weights * act).sum(dim=1, keepdim=True)).detach()
print(cam[0, 0])
cam = F.interpolate(cam, size=img.shape[-2:], mode="bilinear", align_corners=False)
cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-8)
print(cam.shape, cam[0, 0, ::3, ::3])
print(len(net.conv2._forward_hooks), net.conv1.weight.grad.abs().sum() > 0)

# occlusion sensitivity with a 4x4 patch of zeros
base = net(img)[0, cls].item()
drops = torch.zeros(2, 2)
with torch.no_grad():
    for i in range(2):
        for j in range(2):
            occ = img.clone()
            occ[..., 4 * i:4 * i + 4, 4 * j:4 * j + 4] = 0
            drops[i, j] = base - net(occ)[0, cls]
print(drops)

# per-pixel gradient of a single output location of conv1 (receptive field)
x2 = img.clone().requires_grad_()
a1 = net.conv1(x2)
a1[0, 2, 4, 4].backward()
print((x2.grad[0].abs().sum(0) > 0).nonzero().tolist())
print(x2.grad[0, :, 3:6, 3:6].sum(dim=0))
