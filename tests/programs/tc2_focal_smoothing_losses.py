# Custom classification losses compiled as plain functions, the way Kaggle kernels write them:
# a focal loss (gamma, alpha), a hand-written label-smoothing cross-entropy compared with
# F.cross_entropy(label_smoothing=...), and a BCE focal loss for multi-label targets.
import torch
import torch.nn.functional as F


@torch.compile
def focal_loss(logits, target, gamma: float = 2.0, alpha=None):
    logp = F.log_softmax(logits, dim=-1)
    logp_t = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    p_t = logp_t.exp()
    loss = -((1 - p_t) ** gamma) * logp_t
    if alpha is not None:
        loss = loss * alpha[target]
    return loss.mean()


@torch.compile
def smooth_ce(logits, target, eps=0.1):
    n = logits.size(-1)
    logp = logits.log_softmax(dim=-1)
    with torch.no_grad():
        true_dist = torch.full_like(logp, eps / n)
        true_dist.scatter_(1, target.unsqueeze(1), 1 - eps + eps / n)
    return torch.sum(-true_dist * logp, dim=-1).mean()


def sigmoid_focal(inputs, targets, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(inputs)
    ce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).sum() / targets.sum().clamp(min=1)


sigmoid_focal_c = torch.compile(sigmoid_focal, dynamic=False)

logits = (torch.arange(24, dtype=torch.float32).view(6, 4) * 0.37).sin() * 3
target = torch.tensor([0, 3, 1, 1, 2, 0])

for gamma in (0.0, 2.0, 0.5):
    lg = logits.clone().requires_grad_()
    fl = focal_loss(lg, target, gamma=gamma)
    fl.backward()
    print(f"focal gamma={gamma} {fl.item():.5f} grad0 {torch.round(lg.grad[0], decimals=4).tolist()}")
print("gamma=0 equals CE", torch.allclose(focal_loss(logits, target, gamma=0.0), F.cross_entropy(logits, target)))
alpha = torch.tensor([0.25, 0.5, 0.75, 1.0])
print("alpha", f"{focal_loss(logits, target, 2.0, alpha).item():.5f}")

for eps in (0.1, 0.2):
    mine = smooth_ce(logits, target, eps)
    ref = F.cross_entropy(logits, target, label_smoothing=eps)
    print(f"smooth eps={eps} {mine.item():.5f} matches F.cross_entropy {torch.allclose(mine, ref, atol=1e-6)}")

lg = logits.clone().requires_grad_()
smooth_ce(lg, target).backward()
print("smooth grad row sums ~0", torch.allclose(lg.grad.sum(1), torch.zeros(6), atol=1e-6))
print(torch.round(lg.grad[1], decimals=4))

ml_targets = (torch.arange(24).view(6, 4) % 3 == 0).float()
inp = torch.linspace(-2, 2, 24).view(6, 4).requires_grad_()
sf = sigmoid_focal_c(inp, ml_targets)
sf.backward()
print("sigmoid focal", f"{sf.item():.5f}", torch.allclose(sf, sigmoid_focal(inp, ml_targets)))
print(torch.round(inp.grad[0], decimals=5))
print("int target dtype", target.dtype, "loss dtype", sf.dtype, sf.shape)
