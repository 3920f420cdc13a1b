# Multi-class soft Dice and soft IoU (Jaccard) for (N,C,H,W) logits, one-hot targets built both with
# F.one_hot(...).permute(0,3,1,2) and zeros().scatter_(1, ...), ignore pixels masked with masked_fill.
import torch
import torch.nn.functional as F

N, C, H, W = 2, 3, 5, 5
logits = (torch.cos(torch.arange(N * C * H * W, dtype=torch.float32) * 0.47) * 2).view(N, C, H, W).requires_grad_()
target = (torch.arange(N * H * W) // 3 % C).view(N, H, W)
target[1, 0] = 255
ignore = target == 255

oh1 = F.one_hot(target.masked_fill(ignore, 0), num_classes=C).permute(0, 3, 1, 2)
print(oh1.shape, oh1.dtype, oh1.is_contiguous(), oh1.stride())
oh1 = oh1.float().masked_fill(ignore.unsqueeze(1), 0.0)
oh2 = torch.zeros(N, C, H, W).scatter_(1, torch.where(ignore, 0, target).unsqueeze(1), 1.0)
oh2 = oh2 * (~ignore).unsqueeze(1)
print(torch.equal(oh1, oh2), oh1.sum((0, 2, 3)))

probs = F.softmax(logits, dim=1) * (~ignore).unsqueeze(1)
dims = (0, 2, 3)
inter = (probs * oh1).sum(dims)
card = (probs + oh1).sum(dims)
dice = (2 * inter + 1.0) / (card + 1.0)
dice_loss = 1 - dice.mean()
union = card - inter
iou = (inter + 1e-6) / (union + 1e-6)
iou_loss = 1 - iou.mean()
print(dice.detach().numpy().round(5), iou.detach().numpy().round(5))
total = F.cross_entropy(logits, target, ignore_index=255) + dice_loss + 0.5 * iou_loss
total.backward()
print(f"{total.item():.5f}", total.grad_fn.name())
print(logits.grad[1, :, 0, 0], logits.grad[1, :, 1, 0].numpy().round(5))

pred = logits.argmax(1)
pred_oh = F.one_hot(pred, C).permute(0, 3, 1, 2).bool()
tgt_oh = oh1.bool()
hard_inter = (pred_oh & tgt_oh).sum(dims)
hard_union = (pred_oh | tgt_oh).sum(dims)
print(hard_inter, hard_union, hard_inter.dtype)
print((hard_inter / hard_union).numpy().round(4))
print(torch.logical_and(pred_oh, tgt_oh).float().mean().item())
print(F.one_hot(torch.tensor([[0, 2], [1, 1]])))
for bad in [torch.tensor([0, 3]), torch.tensor([-1, 0]), torch.tensor([0.0, 1.0]), torch.tensor([0, 1], dtype=torch.int32)]:
    try:
        print(F.one_hot(bad, 3))
    except Exception as e:
        print(type(e).__name__, e)
