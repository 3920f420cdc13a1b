# einops-free reshaping exercises: patchify images (ViT), space-to-depth, pixel shuffle by hand,
# head split/merge for attention, unflatten/movedim/tensor_split/unbind, checked against builtins.
import torch
import torch.nn.functional as F

B, C, H, W, P = 2, 3, 4, 6, 2
img = torch.arange(B * C * H * W, dtype=torch.float32).reshape(B, C, H, W)

# "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"
patches = img.reshape(B, C, H // P, P, W // P, P).permute(0, 2, 4, 3, 5, 1).reshape(B, (H // P) * (W // P), P * P * C)
print(patches.shape, patches[0, 1, :6])
# same via unfold
uf = F.unfold(img, kernel_size=P, stride=P)  # B, C*P*P, L
print(uf.shape, torch.equal(uf.transpose(1, 2).reshape(B, -1, C, P * P).transpose(2, 3).reshape(B, -1, P * P * C), patches))
# and back: fold
print(torch.equal(F.fold(uf, output_size=(H, W), kernel_size=P, stride=P), img))

# space-to-depth and pixel shuffle
s2d = img.reshape(B, C, H // 2, 2, W // 2, 2).permute(0, 3, 5, 1, 2, 4).reshape(B, C * 4, H // 2, W // 2)
print(s2d.shape, torch.equal(F.pixel_unshuffle(img, 2), img.reshape(B, C, H // 2, 2, W // 2, 2).permute(0, 1, 3, 5, 2, 4).reshape(B, C * 4, H // 2, W // 2)))
ps = F.pixel_shuffle(F.pixel_unshuffle(img, 2), 2)
print(torch.equal(ps, img), torch.nn.PixelShuffle(2)(torch.arange(16.0).reshape(1, 4, 2, 2))[0, 0])

# attention head split/merge: "b n (h d) -> b h n d"
x = torch.arange(2 * 5 * 12.0).reshape(2, 5, 12)
heads = x.view(2, 5, 3, 4).transpose(1, 2)
print(heads.shape, heads.is_contiguous(), heads.stride())
merged = heads.transpose(1, 2).reshape(2, 5, 12)
print(torch.equal(merged, x))
try:
    heads.transpose(1, 2).view(2, 5, 12)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.equal(heads.transpose(1, 2).contiguous().view(2, 5, 12), x))

# unflatten / flatten / movedim
print(x.unflatten(-1, (3, 4)).shape, x.unflatten(1, (-1, 1)).shape, x.flatten(start_dim=1).shape)
print(torch.movedim(img, 1, -1).shape, torch.movedim(img, (0, 1), (-1, -2)).shape, img.moveaxis(-1, 0).shape)
print(torch.nn.Flatten()(img).shape, torch.nn.Unflatten(1, (3, 8))(torch.zeros(2, 24)).shape)
try:
    x.unflatten(-1, (5, -1))
except RuntimeError as e:
    print("RuntimeError", e)

# split/chunk/tensor_split
t = torch.arange(10)
print(t.split(3), t.split([2, 5, 3]), t.chunk(4), t.chunk(6))
print(torch.tensor_split(t, 3), torch.tensor_split(t, (2, 7)), torch.tensor_split(t, torch.tensor([1, 1, 9])))
print(torch.tensor_split(torch.arange(12).reshape(3, 4), 3, dim=1))
print(torch.hsplit(torch.arange(12).reshape(3, 4), 2)[1], torch.vsplit(torch.arange(12).reshape(4, 3), [1])[1].shape)
try:
    t.split([2, 2])
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.arange(6).reshape(2, 3).unbind(1), torch.dstack([torch.ones(2), torch.zeros(2)]).shape)
print(torch.column_stack([torch.arange(3), torch.arange(3, 6)]), torch.row_stack([torch.arange(2), torch.arange(2)]).shape)
print(torch.atleast_2d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.ones(2, 3)).shape)

# squeeze with tuple dims, unsqueeze errors
z = torch.zeros(1, 3, 1, 2, 1)
print(z.squeeze().shape, z.squeeze((0, 2)).shape, z.squeeze(1).shape, z.squeeze(-1).shape)
try:
    z.unsqueeze(7)
except IndexError as e:
    print("IndexError", e)
try:
    z.permute(0, 1, 2)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    z.permute(0, 1, 2, 3, 3)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    img.reshape(5, -1)
except RuntimeError as e:
    print("RuntimeError", e)
print(img.swapaxes(0, 3).shape, img.swapdims(1, 2).shape, img.T.shape if False else img.permute(*range(img.dim() - 1, -1, -1)).shape)
print(torch.rot90(torch.arange(6).reshape(2, 3)), torch.rot90(torch.arange(6).reshape(2, 3), -1, (0, 1)))
print(torch.arange(6).reshape(2, 3).flip(0, 1), torch.fliplr(torch.arange(4).reshape(2, 2)), torch.roll(torch.arange(6).reshape(2, 3), shifts=(1, -1), dims=(0, 1)))
print(torch.tile(torch.tensor([1, 2]), (2, 2)), torch.tensor([[1, 2]]).repeat(2, 1, 2).shape)
