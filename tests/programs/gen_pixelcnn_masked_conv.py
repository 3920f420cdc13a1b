# PixelCNN-style masked convolutions: a Conv2d subclass that registers a 'mask' buffer (type A
# excludes the centre pixel, type B includes it) and multiplies it into the weight, checked via
# the gradient receptive field; 256-way cross-entropy over pixel intensities; greedy sampling.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert mask_type in {'A', 'B'}
        self.register_buffer('mask', self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == 'B'):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0

    def forward(self, x):
        self.weight.data *= self.mask
        return super(MaskedConv2d, self).forward(x)


class MaskedConvFunctional(nn.Conv2d):
    """Variant that keeps the weight intact and masks it functionally."""
    def __init__(self, mask_type, in_ch, out_ch, k):
        super().__init__(in_ch, out_ch, k, padding=k // 2, bias=False)
        mask = torch.ones_like(self.weight)
        mask[:, :, k // 2, k // 2 + (mask_type == 'B'):] = 0.
        mask[:, :, k // 2 + 1:, :] = 0.
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, x):
        return F.conv2d(x, self.weight * self.mask, self.bias, self.stride, self.padding)


a = MaskedConv2d('A', 1, 2, 5, 1, 2, bias=False)
b = MaskedConv2d('B', 2, 2, 3, 1, 1, bias=False)
print(a, a.mask[0, 0], b.mask[1, 1], sep="\n")
print(a.mask.dtype, a.mask.requires_grad, [n for n, _ in a.named_buffers()], sorted(a.state_dict().keys()))
for m in (a, b):
    with torch.no_grad():
        m.weight.copy_(torch.linspace(-1, 1, m.weight.numel()).view_as(m.weight))
net = nn.Sequential(a, nn.ReLU(), b, nn.ReLU(), nn.Conv2d(2, 4, 1))
with torch.no_grad():
    net[4].weight.copy_(torch.cos(torch.arange(8.)).view(4, 2, 1, 1))
    net[4].bias.copy_(torch.tensor([0.1, -0.1, 0.2, 0.0]))
print(a.weight[0, 0], a.weight.grad)

# receptive field check: output at (3, 3) must depend only on pixels strictly before it
x = (torch.arange(36, dtype=torch.float32).view(1, 1, 6, 6) / 35).requires_grad_()
out = net(x)
out[0, :, 3, 3].sum().backward()
print((x.grad[0, 0] != 0).int())
print(x.grad[0, 0, 3], x.grad[0, 0, 4:].abs().sum())

f = MaskedConvFunctional('A', 1, 3, 3)
with torch.no_grad():
    f.weight.fill_(0.5)
print(f.mask.squeeze(1)[0], list(f.state_dict().keys()), f.weight.sum().item())
y = f(x.detach())
print(y.shape, y[0, 0, :2])
f(x.detach()).pow(2).mean().backward()
print(f.weight.grad[0, 0])

# 4-level "intensities" as classes: logits (N, C, H, W) vs integer targets (N, H, W)
target = (x.detach() * 3).round().long().squeeze(1)
logits = net(x.detach())
print(target.dtype, target.shape, logits.shape)
loss = F.cross_entropy(logits, target)
nll_bits = loss / torch.log(torch.tensor(2.0))
print(f"loss {loss.item():.5f} bits/dim {nll_bits.item():.5f}")
print(F.cross_entropy(logits, target, reduction='none').shape)
try:
    F.cross_entropy(logits, target.unsqueeze(1))
except RuntimeError as e:
    print(type(e).__name__, e)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(net(x.detach()), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), (a.weight * (1 - a.mask)).abs().sum().item())

# greedy autoregressive sampling, pixel by pixel
sample = torch.zeros(1, 1, 4, 4)
with torch.no_grad():
    for i in range(4):
        for j in range(4):
            probs = F.softmax(net(sample)[:, :, i, j], dim=1)
            sample[:, :, i, j] = probs.argmax(dim=1, keepdim=True).float() / 3
print(sample[0, 0])
