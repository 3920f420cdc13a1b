# Hand-written batch augmentation (no torchvision): crops at fixed offsets, horizontal/vertical
# flips, rot90, roll (circular shift), padding-then-crop "random crop" with reflect padding,
# and a test-time-augmentation average whose gradient flows back through every op.
import torch
import torch.nn.functional as F

batch = (torch.arange(2 * 3 * 6 * 6, dtype=torch.float32).view(2, 3, 6, 6) % 17) / 16
plan = [(0, 1, True, 0), (2, 0, False, 1), (1, 2, True, 3)]  # (top, left, flip, quarter turns)


def augment(img, top, left, flip, turns):
    padded = F.pad(img, (1, 1, 1, 1), mode="reflect")
    crop = padded[..., top:top + 6, left:left + 6]
    if flip:
        crop = torch.flip(crop, dims=[-1])
    return torch.rot90(crop, k=turns, dims=(-2, -1))


views = [augment(batch, *p) for p in plan]
for v, p in zip(views, plan):
    print(p, tuple(v.shape), v[0, 0, 0].tolist())
print(torch.roll(batch[0, 0], shifts=(1, -2), dims=(0, 1))[:3])
print(torch.roll(batch[0, 0, 0], 3))
print(batch[1, 2].flip(0).rot90(1)[:2])
print(torch.fliplr(batch[0, 1])[0], torch.flipud(batch[0, 1])[0])

# TTA: undo each augmentation on the "prediction" and average; check gradient
x = batch.clone().requires_grad_(True)
preds = []
for top, left, flip, turns in plan:
    y = augment(x, top, left, flip, turns) * 2
    y = torch.rot90(y, k=-turns, dims=(-2, -1))
    if flip:
        y = y.flip(-1)
    preds.append(y)
mean = torch.stack(preds).mean(0)
print(mean.grad_fn.name(), mean.shape)
w = torch.arange(6, dtype=torch.float32)
(mean * w).sum().backward()
torch.set_printoptions(precision=4)
print(x.grad[0, 0])
print(x.grad.sum().item())

# mixup / cutmix with fixed lambdas
lam = 0.7
perm = torch.tensor([1, 0])
mixed = lam * batch + (1 - lam) * batch[perm]
print(mixed[0, 0, 0])
cut = batch.clone()
cut[:, :, 1:4, 2:5] = batch[perm][:, :, 1:4, 2:5]
area = 9 / 36
print(cut[0, 0, :4], 1 - area)
torch.set_printoptions(profile="default")
