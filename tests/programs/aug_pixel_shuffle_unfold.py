# Sub-pixel super-resolution (ESPCN) head and patch extraction: nn.PixelShuffle/PixelUnshuffle,
# F.unfold/F.fold (overlapping patches averaged back with a divisor), nn.Unfold/nn.Fold modules,
# their reprs, gradients, and the shape errors users hit.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 8 * 3 * 3, dtype=torch.float32).view(1, 8, 3, 3)
ps = nn.PixelShuffle(2)
pu = nn.PixelUnshuffle(2)
print(ps, pu)
y = ps(x)
print(y.shape, y[0, 0])
print(torch.equal(pu(y), x))
print(F.pixel_unshuffle(torch.arange(16.).view(1, 1, 4, 4), 2)[0, :, 0, 0])

g = x.clone().requires_grad_(True)
(ps(g) * torch.arange(6, dtype=torch.float32)).sum().backward()
print(g.grad[0, :, 0, 0], ps(g).grad_fn.name())

# overlapping patches: unfold -> per-patch op -> fold, normalised by the overlap count
img = (torch.arange(2 * 5 * 6, dtype=torch.float32).view(1, 2, 5, 6) % 9) / 8
unfold = nn.Unfold(kernel_size=3, padding=1, stride=2)
fold = nn.Fold(output_size=(5, 6), kernel_size=3, padding=1, stride=2)
print(unfold, fold)
cols = unfold(img)
print(cols.shape)
ones = torch.ones_like(img)
divisor = fold(unfold(ones))
print(divisor[0, 0])
rec = fold(cols * 0.5) / divisor
torch.set_printoptions(precision=5)
print(rec[0, 1])
print(torch.allclose(rec * 2, img))
patches = F.unfold(img, kernel_size=(2, 3), dilation=(2, 1), stride=(1, 2))
print(patches.shape, patches[0, :, 1])
t = img.clone().requires_grad_(True)
F.fold(F.unfold(t, 3, padding=1), (5, 6), 3, padding=1).pow(2).sum().backward()
print(t.grad[0, 0])
torch.set_printoptions(profile="default")

for bad in (lambda: F.pixel_shuffle(torch.zeros(1, 3, 2, 2), 2),
            lambda: F.pixel_unshuffle(torch.zeros(1, 1, 3, 4), 2),
            lambda: F.fold(torch.zeros(1, 5, 4), (3, 3), 2),
            lambda: F.unfold(torch.zeros(1, 1, 2, 2), 3)):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
