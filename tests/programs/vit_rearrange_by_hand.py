# einops-free "rearrange" helpers as written in ViT/segmentation blog posts: torch.reshape/permute
# called with keyword shapes, swapaxes, as_strided patch views, roll-based cyclic shifts, and
# patchifying an integer segmentation mask (F.unfold refuses integers, so users cast to float first).
import torch
import torch.nn.functional as F


def to_tokens(x, p):
    """b c (h p1) (w p2) -> b (h w) (p1 p2 c)"""
    b, c, h, w = x.shape
    x = torch.reshape(x, shape=(b, c, h // p, p, w // p, p))
    x = torch.permute(x, dims=(0, 2, 4, 3, 5, 1))
    return torch.reshape(x, shape=(b, (h // p) * (w // p), p * p * c))


def from_tokens(t, p, c, h, w):
    b = t.shape[0]
    t = t.reshape(b, h // p, w // p, p, p, c).permute(dims=[0, 5, 1, 3, 2, 4])
    return t.reshape(b, c, h, w)


img = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).view(2, 3, 4, 4) / 10
tok = to_tokens(img, 2)
print(tok.shape, tok[0, 1])
print(torch.equal(from_tokens(tok, 2, 3, 4, 4), img))
print(torch.swapaxes(tok, axis0=1, axis1=2).shape, tok.swapaxes(1, 2).is_contiguous())
print(tok.swapdims(dim0=0, dim1=1).shape)

# the same patches as a strided view of a single image channel
ch = img[0, 0].contiguous()
view = torch.as_strided(ch, size=(2, 2, 2, 2), stride=(8, 2, 4, 1))
print(view[1, 0], view.is_contiguous())
try:
    torch.as_strided(ch, (2, 2), (1.0, 4))
except TypeError as e:
    print("TypeError", e)

# cyclic shift for shifted windows, and the rolled token grid
grid = torch.arange(16).view(1, 4, 4)
print(torch.roll(grid, shifts=(-1, -1), dims=(1, 2)))
print(torch.roll(grid, 3).view(-1)[:6])
for bad in [lambda: torch.roll(grid, (), ()), lambda: torch.roll(torch.tensor(5), 1, 0)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

# segmentation masks: F.unfold wants floating point
mask = (torch.arange(32) % 3).view(1, 2, 4, 4)
try:
    F.unfold(mask, kernel_size=2, stride=2)
except NotImplementedError as e:
    print("NotImplementedError", e)
cols = F.unfold(mask.float(), kernel_size=2, stride=2)
print(cols.shape, cols[0, :, 0].long())
labels = cols.view(1, 2, 4, -1).mode(dim=2).values.long()
print(labels)
onehot = F.one_hot(mask[0, 0], 3).permute(dims=(2, 0, 1)).float()
print(F.fold(F.unfold(onehot[None], 2, stride=2), (4, 4), 2, stride=2).eq(onehot).all())
try:
    tok.repeat(1, -1, 2)
except RuntimeError as e:
    print("RuntimeError", e)
x = img.requires_grad_()
y = torch.permute(torch.reshape(x, shape=(2, 3, -1)), dims=(0, 2, 1))
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
(y * torch.arange(3.0)).sum().backward()
print(x.grad[0, :, 0, 0], x.grad[1, 2, 3])
