# Masks loaded as uint8 arrays (np.uint8 from PIL/cv2 -> torch.from_numpy) fed to CrossEntropyLoss:
# the errors users hit (Byte/Int/float targets, channel dim left in, wrong sizes) and the usual fixes.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

H, W = 4, 5
mask_np = (np.add.outer(np.arange(H), np.arange(W)) % 3).astype(np.uint8)
mask_np[0, 0] = 255
mask = torch.from_numpy(mask_np)
print(mask.dtype, mask.shape, mask.unique())
logits = torch.cos(torch.arange(2 * 3 * H * W, dtype=torch.float32) * 0.3).view(2, 3, H, W).requires_grad_()
target = torch.stack([mask, mask.flip(1)])
crit = nn.CrossEntropyLoss(ignore_index=255)

attempts = {
    "uint8": target,
    "int32": target.int(),
    "float": target.float(),
    "with channel": target.long().unsqueeze(1),
    "one-hot float": F.one_hot(target.long().clamp(max=2), 3).float(),
    "wrong size": target.long()[:, :, :4],
    "wrong batch": target.long()[:1],
    "long": target.long(),
}
for name, t in attempts.items():
    try:
        loss = crit(logits, t)
        print(name, "ok", f"{loss.item():.4f}")
    except Exception as e:
        print(name, type(e).__name__, e)

rows = logits.permute(0, 2, 3, 1).reshape(-1, 3)
flat = target.reshape(-1)
print("rows uint8", f"{F.cross_entropy(rows, flat, ignore_index=255).item():.4f}")
print("rows long", f"{F.cross_entropy(rows, flat.long(), ignore_index=255).item():.4f}")
try:
    F.cross_entropy(rows, flat.int(), ignore_index=255)
except RuntimeError as e:
    print(e)
try:
    F.nll_loss(F.log_softmax(logits, 1), target, weight=torch.ones(3, dtype=torch.float64))
except RuntimeError as e:
    print(e)
try:
    F.nll_loss(F.log_softmax(logits, 1), target.long(), weight=torch.ones(4))
except RuntimeError as e:
    print(e)
try:
    F.cross_entropy(logits, target.long())
except IndexError as e:
    print("IndexError", e)

vol = logits.unsqueeze(2).expand(2, 3, 2, H, W)
for t in [target.unsqueeze(1).expand(2, 2, H, W), target.long().unsqueeze(1).expand(2, 2, H, W)]:
    try:
        print(f"{F.cross_entropy(vol, t, ignore_index=255).item():.4f}")
    except RuntimeError as e:
        print(e)

loss = crit(logits, target.long())
loss.backward()
print(f"{loss.item():.4f}", logits.grad[0, :, 0, 0], logits.grad[0, :, 1, 1].numpy().round(4))
