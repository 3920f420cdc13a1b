# Loss details that answers on Q&A sites keep explaining: how 'mean' is normalised when there are
# class weights or ignored targets, per-pixel cross entropy, label smoothing with weights,
# pos_weight broadcasting, KLDiv's log_target and 'batchmean', SmoothL1's beta vs Huber's delta.
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[1.2, -0.4, 0.3, 0.9],
                       [0.1, 2.0, -1.0, 0.5],
                       [-0.3, 0.2, 1.7, -0.8],
                       [0.6, 0.6, -0.2, 2.4],
                       [1.5, -1.1, 0.0, 0.4]], requires_grad=True)
target = torch.tensor([0, 1, 3, 3, -100])
w = torch.tensor([1.0, 2.0, 0.5, 4.0])

per_sample = F.cross_entropy(logits, target, reduction="none")
print(per_sample)
print(F.cross_entropy(logits, target), per_sample.sum() / 4)
weighted = F.cross_entropy(logits, target, weight=w, reduction="none")
print(weighted, F.cross_entropy(logits, target, weight=w), weighted.sum() / w[target[:4]].sum())
print(F.cross_entropy(logits, target, weight=w, reduction="sum"))
print(F.cross_entropy(logits, torch.tensor([0, 1, 3, 3, 2]), ignore_index=3, reduction="none"))
print(F.cross_entropy(logits, target, label_smoothing=0.1), F.cross_entropy(logits, target, weight=w, label_smoothing=0.3))
print(F.cross_entropy(logits, target, label_smoothing=0.2, reduction="none"))
print(F.nll_loss(F.log_softmax(logits, 1), target, weight=w), F.nll_loss(logits, target, reduction="sum"))
all_ignored = F.cross_entropy(logits[:1], torch.tensor([-100]))
print(all_ignored, F.cross_entropy(logits[:1], torch.tensor([-100]), reduction="sum"))

loss = F.cross_entropy(logits, target, weight=w, label_smoothing=0.1)
loss.backward()
print(logits.grad)

# per-pixel classification: input (N, C, H, W), target (N, H, W)
seg_logits = torch.sin(torch.arange(2 * 3 * 2 * 2, dtype=torch.float32) * 0.9).view(2, 3, 2, 2).requires_grad_()
seg_target = torch.tensor([[[0, 1], [2, 255]], [[1, 1], [0, 2]]])
seg = nn.CrossEntropyLoss(ignore_index=255, reduction="none")(seg_logits, seg_target)
print(seg.shape, seg)
seg_mean = nn.CrossEntropyLoss(ignore_index=255, weight=torch.tensor([0.2, 1.0, 3.0]))(seg_logits, seg_target)
seg_mean.backward()
print(seg_mean, seg_logits.grad[0, :, 1, 1], seg_logits.grad[1, 2])
probs_target = torch.softmax(torch.cos(torch.arange(2 * 3 * 2 * 2, dtype=torch.float32)).view(2, 3, 2, 2), 1)
print(F.cross_entropy(seg_logits, probs_target), F.cross_entropy(seg_logits, probs_target, label_smoothing=0.5))

# binary targets: pos_weight broadcasts over the last (class) dimension
z = torch.tensor([[0.8, -1.2, 2.0], [-0.5, 0.3, -2.2]], requires_grad=True)
y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
print(F.binary_cross_entropy_with_logits(z, y, reduction="none"))
print(F.binary_cross_entropy_with_logits(z, y, pos_weight=torch.tensor([3.0, 1.0, 0.5]), reduction="none"))
print(F.binary_cross_entropy_with_logits(z, y, weight=torch.tensor([[1.0], [0.25]])))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0), reduction="sum")(z, y))
print(F.binary_cross_entropy(torch.sigmoid(z), y, reduction="none"))
bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.0, 1.0, 0.5]))(z, y)
bce.backward()
print(bce, z.grad)
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0, 0.5]), torch.tensor([1.0, 1.0, 0.0]), reduction="none"))

# KL divergence: log-probabilities in, probabilities (or log-probabilities) as target
log_p = F.log_softmax(torch.tensor([[1.0, 2.0, 0.5], [0.3, 0.1, 0.2]]), dim=1)
q = torch.tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
for red in ["none", "sum", "mean", "batchmean"]:
    print(red, F.kl_div(log_p, q, reduction=red))
print(F.kl_div(log_p, q.log(), reduction="batchmean", log_target=True))
print(nn.KLDivLoss(reduction="sum", log_target=True)(log_p, log_p))
print(F.kl_div(log_p, torch.tensor([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]]), reduction="none"))

# regression losses around the switch point
pred = torch.tensor([0.0, 0.3, 0.5, 1.0, 2.5, -3.0], requires_grad=True)
truth = torch.zeros(6)
print(F.smooth_l1_loss(pred, truth, reduction="none"))
print(F.smooth_l1_loss(pred, truth, beta=0.5, reduction="none"))
print(F.huber_loss(pred, truth, delta=0.5, reduction="none"))
print(F.smooth_l1_loss(pred, truth, beta=0.0, reduction="none"), nn.SmoothL1Loss(beta=2.0)(pred, truth))
print(F.mse_loss(pred, truth, reduction="sum"), F.l1_loss(pred, truth, reduction="none"))
(g,) = torch.autograd.grad(F.huber_loss(pred, truth, delta=0.5), pred)
print(g)
(g,) = torch.autograd.grad(F.l1_loss(pred, truth), pred)
print(g)
(g,) = torch.autograd.grad(F.smooth_l1_loss(pred, truth, beta=0.5, reduction="sum"), pred)
print(g)

# cosine embedding loss with a margin
a = torch.tensor([[1.0, 0.0], [0.6, 0.8], [1.0, 1.0]])
b = torch.tensor([[0.0, 1.0], [0.6, 0.8], [1.0, 0.9]])
lbl = torch.tensor([1, -1, -1])
print(F.cosine_embedding_loss(a, b, lbl, reduction="none"), nn.CosineEmbeddingLoss(margin=0.5)(a, b, lbl))
