# Two-view augmentation pipeline written on tensors, as in lightweight SimCLR repos: per-sample
# horizontal flip and roll chosen with a seeded torch.Generator, Gaussian noise from the same
# generator, grayscale/solarize/blur by hand; prints only generator-independent facts and the
# deterministic transforms' values.
import torch
import torch.nn.functional as F


def gaussian_kernel(size=3, sigma=1.0):
    ax = torch.arange(size, dtype=torch.float32) - (size - 1) / 2
    k = torch.exp(-(ax ** 2) / (2 * sigma ** 2))
    k = k / k.sum()
    return torch.outer(k, k)


def blur(x, size=3, sigma=1.0):
    c = x.shape[1]
    w = gaussian_kernel(size, sigma).expand(c, 1, size, size)
    return F.conv2d(F.pad(x, [size // 2] * 4, mode="reflect"), w, groups=c)


def grayscale(x):
    w = torch.tensor([0.299, 0.587, 0.114], dtype=x.dtype).view(1, 3, 1, 1)
    return (x * w).sum(dim=1, keepdim=True).expand_as(x)


def solarize(x, threshold=0.5):
    return torch.where(x >= threshold, 1.0 - x, x)


def augment(x, g):
    n = x.shape[0]
    flip = torch.rand(n, generator=g) < 0.5
    x = torch.where(flip.view(n, 1, 1, 1), x.flip(-1), x)
    shifts = torch.randint(-2, 3, (n,), generator=g)
    x = torch.stack([torch.roll(xi, int(s), dims=-1) for xi, s in zip(x, shifts)])
    x = x + 0.05 * torch.randn(x.shape, generator=g)
    return x.clamp(0, 1), flip, shifts


imgs = (torch.sin(torch.arange(2 * 3 * 6 * 6, dtype=torch.float32) * 0.21).view(2, 3, 6, 6) + 1) / 2
g1 = torch.Generator().manual_seed(1234)
g2 = torch.Generator().manual_seed(1234)
v1, flip1, shifts1 = augment(imgs, g1)
v2, flip2, shifts2 = augment(imgs, g2)
print("same seed same views", torch.equal(v1, v2), torch.equal(flip1, flip2), torch.equal(shifts1, shifts2))
print("views", v1.shape, v1.dtype, flip1.dtype, shifts1.dtype, bool(v1.min() >= 0), bool(v1.max() <= 1))
print("initial_seed", g1.initial_seed())
state = g1.get_state()
a = torch.randn(4, generator=g1)
g1.set_state(state)
b = torch.randn(4, generator=g1)
print("replay", torch.equal(a, b), state.dtype)

print("blur", blur(imgs)[0, 0, :2].round(decimals=4))
print("gray", grayscale(imgs)[1, :, 0, :3].round(decimals=4))
print("solarize", solarize(imgs)[0, 1, 2].round(decimals=4))
print("flip", imgs.flip(-1)[0, 0, 0].round(decimals=4), torch.fliplr(imgs[0, 0])[0].round(decimals=4))
print("roll", torch.roll(imgs[0, 0, 0], 2).round(decimals=4), torch.roll(imgs[0, 0], (1, -1), (0, 1))[0].round(decimals=4))
x = imgs.clone().requires_grad_()
y = blur(solarize(grayscale(x))).mean()
y.backward()
print("aug grad", x.grad[0, :, 0, :3].round(decimals=5))
try:
    torch.randn(2, generator=torch.Generator(device="meta"))
except Exception as e:
    print(type(e).__name__)
