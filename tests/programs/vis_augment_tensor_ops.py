# Data augmentation written with plain tensor ops, as in many training scripts: horizontal /
# vertical flips, 90-degree rotations, roll-based translation, random-crop by slicing with fixed
# offsets, cutout by masked assignment, mixup / cutmix with fixed lambdas, per-channel
# normalisation with broadcast mean/std and its inverse, channels_last batches, and uint8 <-> float.
import torch
import torch.nn.functional as F

img = torch.arange(3 * 4 * 5, dtype=torch.float32).view(3, 4, 5)
print(torch.flip(img, dims=[2])[0], img.flip(-2)[1, 0])
print(torch.rot90(img, 1, dims=(1, 2)).shape, torch.rot90(img, -1, dims=(1, 2))[0])
print(torch.roll(img, shifts=(1, -2), dims=(1, 2))[0])
print(img.transpose(1, 2).shape, img.transpose(1, 2).is_contiguous())

# random-crop with padding (fixed offsets instead of randint)
padded = F.pad(img.unsqueeze(0), (2, 2, 2, 2), mode="reflect")[0]
for top, left in [(0, 0), (2, 1), (4, 4)]:
    crop = padded[:, top:top + 4, left:left + 5]
    print(top, left, crop.shape, crop[0, 0].tolist())

# cutout
cut = img.clone()
cut[:, 1:3, 2:4] = 0
print(cut[2], (cut == 0).sum())
mask = torch.ones(4, 5, dtype=torch.bool)
mask[0, :2] = False
print(img.masked_fill(~mask, -1.0)[1], img[:, mask].shape)

# batch + normalisation with ImageNet stats
batch = torch.stack([img / 60, img.flip(-1) / 60])
mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225])[None, :, None, None]
norm = (batch - mean) / std
print(norm.shape, norm.mean(dim=(0, 2, 3)), norm.std(dim=(0, 2, 3)))
back = norm * std + mean
print(torch.allclose(back, batch, atol=1e-6))
norm_ = batch.clone().sub_(mean).div_(std)
print(torch.equal(norm_, norm))

# mixup / cutmix
lam = 0.7
labels = F.one_hot(torch.tensor([1, 3]), num_classes=4).float()
perm = torch.tensor([1, 0])
mixed = lam * batch + (1 - lam) * batch[perm]
print(mixed[0, 0, 0], lam * labels + (1 - lam) * labels[perm])
cm = batch.clone()
cm[:, :, 1:3, 1:4] = batch[perm][:, :, 1:3, 1:4]
lam_adj = 1 - (2 * 3) / (4 * 5)
print(cm[0, 1], lam_adj)

# uint8 round-trip and channels_last
u8 = (batch * 255).round().clamp(0, 255).to(torch.uint8)
print(u8.dtype, u8[1, 2, 3], u8.float().div(255).sub(batch).abs().max() < 0.002)
cl = batch.contiguous(memory_format=torch.channels_last)
print(cl.stride(), ((cl - mean) / std).stride(), (cl * 2).is_contiguous(memory_format=torch.channels_last))
print(cl.permute(0, 2, 3, 1).is_contiguous(), cl.flip(-1).stride(), torch.roll(cl, 1, 3).stride())
hwc = u8[0].permute(1, 2, 0)
print(hwc.shape, hwc.stride(), hwc.contiguous().stride())
# grayscale + brightness/contrast jitter with fixed factors
gray = (batch * torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)).sum(1, keepdim=True)
bright = (batch * 1.2).clamp(0, 1)
contrast = ((batch - gray.mean(dim=(-3, -2, -1), keepdim=True)) * 0.8 + gray.mean(dim=(-3, -2, -1), keepdim=True)).clamp_(0, 1)
print(gray.shape, bright.max(), contrast[1, 0, 0])
