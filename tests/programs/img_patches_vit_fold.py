# Extracting image patches the ways people do it for ViTs and sliding-window inference:
# Tensor.unfold twice on H and W, F.unfold with stride/dilation/padding, a patch-embedding conv
# with stride == kernel, overlapping-tile reconstruction with F.fold / F.fold(ones) averaging,
# ShuffleNet channel shuffle, pixel_unshuffle as space-to-depth, and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

img = torch.arange(2 * 3 * 6 * 6, dtype=torch.float32).view(2, 3, 6, 6)
P = 3
patches = img.unfold(2, P, P).unfold(3, P, P)
print(patches.shape, patches.stride(), patches.is_contiguous())
tokens = patches.permute(0, 2, 3, 1, 4, 5).reshape(2, -1, 3 * P * P)
print(tokens.shape, tokens[0, 1, :5], tokens[1, 3, -3:])
cols = F.unfold(img, kernel_size=P, stride=P).transpose(1, 2)
print(cols.shape, torch.equal(cols, tokens))

# patch embedding conv == linear on flattened patches
embed = nn.Conv2d(3, 4, kernel_size=P, stride=P)
with torch.no_grad():
    embed.weight.copy_(torch.linspace(-0.05, 0.05, embed.weight.numel()).view_as(embed.weight))
    embed.bias.fill_(0.25)
e = embed(img).flatten(2).transpose(1, 2)
lin = tokens @ embed.weight.view(4, -1).t() + embed.bias
print(e.shape, torch.allclose(e, lin, atol=1e-4), e[0, 0])

# F.unfold with dilation, padding, stride
x = torch.arange(25.).view(1, 1, 5, 5)
print(F.unfold(x, 2, dilation=2).shape, F.unfold(x, 2, dilation=2)[0, :, :3])
print(F.unfold(x, 3, padding=1, stride=2).shape, F.unfold(x, 3, padding=1, stride=2)[0, 4])
print(F.unfold(x, (1, 3)).shape, F.unfold(x.transpose(2, 3), (2, 2), stride=3)[0])

# overlapping tiles: fold sums overlaps, divide by fold(ones) to average
k, s = 3, 2
tiles = F.unfold(x, k, stride=s)
counts = F.fold(torch.ones_like(tiles), (5, 5), k, stride=s)
print(counts[0, 0])
recon = F.fold(tiles, (5, 5), k, stride=s) / counts
print(torch.equal(recon, x))
print(F.fold(tiles * 2, output_size=5, kernel_size=k, stride=s)[0, 0, 2])

# gradients through unfold / fold
g = x.clone().requires_grad_()
F.unfold(g, 3, stride=2).sum().backward()
print(g.grad[0, 0])
t = torch.arange(1., 10.).view(1, 9, 1).requires_grad_()
(F.fold(t, (3, 3), 3) * torch.arange(9.).view(1, 1, 3, 3)).sum().backward()
print(t.grad.flatten())
h = img[:1, :1].clone().requires_grad_()
q = h.unfold(2, 2, 2).unfold(3, 3, 3)
(q ** 2).sum().backward()
print(q.grad_fn.name(), h.grad[0, 0])

# ShuffleNet channel shuffle and space-to-depth
c = torch.arange(6.).view(1, 6, 1, 1)
shuf = c.view(1, 2, 3, 1, 1).transpose(1, 2).reshape(1, 6, 1, 1)
print(shuf.flatten(), F.channel_shuffle(c, 2).flatten(), nn.ChannelShuffle(3)(c).flatten())
s2d = F.pixel_unshuffle(img[:1, :1], 2)
print(s2d.shape, s2d[0, :, 0, 0], torch.equal(F.pixel_shuffle(s2d, 2), img[:1, :1]))
print(nn.PixelUnshuffle(3)(img).shape, nn.ChannelShuffle(3))

for fn in [lambda: F.unfold(torch.ones(2, 3, 4), 2),
           lambda: F.unfold(x, 6),
           lambda: F.fold(torch.ones(1, 5, 4), (3, 3), 2),
           lambda: F.pixel_unshuffle(torch.ones(1, 1, 5, 4), 2),
           lambda: F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2),
           lambda: F.channel_shuffle(torch.ones(1, 5, 2, 2), 2)]:
    try:
        print(fn().shape)
    except Exception as e:
        print(type(e).__name__, e)
