# Uncertainty calibration of an ensemble / MC-dropout predictive: expected calibration error with
# torch.bucketize and scatter_add_, reliability-diagram bins, Brier score, NLL, and temperature
# scaling fitted by LBFGS on log T, as in "On Calibration of Modern Neural Networks".
import math
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
N, C, M = 60, 4, 3
idx = torch.arange(N, dtype=torch.float64)
labels = (torch.arange(N) * 7 % C)
# M members' logits: confident, and right about two thirds of the time
member_logits = torch.stack([
    3.0 * torch.cos(idx.unsqueeze(1) * 0.37 * (m + 1) + torch.arange(C) * 1.3)
    + 4.0 * F.one_hot((labels + (torch.arange(N) % 3 == 0).long() * (m + 1)) % C, C)
    for m in range(M)])
print("member logits", member_logits.shape)

log_pred = torch.logsumexp(F.log_softmax(member_logits, -1), 0) - math.log(M)
probs = log_pred.exp()


def ece(probs, labels, n_bins=10):
    conf, pred = probs.max(1)
    correct = (pred == labels).to(conf.dtype)
    edges = torch.linspace(0, 1, n_bins + 1)
    bins = torch.bucketize(conf, edges[1:-1])
    count = torch.zeros(n_bins).scatter_add_(0, bins, torch.ones_like(conf))
    conf_sum = torch.zeros(n_bins).scatter_add_(0, bins, conf)
    acc_sum = torch.zeros(n_bins).scatter_add_(0, bins, correct)
    nonempty = count > 0
    gap = (acc_sum[nonempty] / count[nonempty] - conf_sum[nonempty] / count[nonempty]).abs()
    return (gap * count[nonempty] / len(labels)).sum(), count


e, count = ece(probs, labels)
print("bin counts", count.long().tolist())
print(f"ECE {e.item():.4f}")
print(f"NLL {F.nll_loss(log_pred, labels).item():.4f}")
brier = (probs - F.one_hot(labels, C)).pow(2).sum(1).mean()
print(f"Brier {brier.item():.4f}")
print(f"acc {(probs.argmax(1) == labels).float().mean().item():.4f}")

# temperature scaling on the averaged logits (log-space parameter keeps T > 0)
mean_logits = member_logits.mean(0)
log_t = torch.zeros(1, requires_grad=True)
opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=100, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = F.cross_entropy(mean_logits / log_t.exp(), labels)
    loss.backward()
    return loss


before = F.cross_entropy(mean_logits, labels).item()
opt.step(closure)
T = log_t.exp().item()
after = F.cross_entropy(mean_logits / T, labels).item()
print(f"T {T:.3f}  nll {before:.4f} -> {after:.4f}")
scaled = F.softmax(mean_logits / T, -1)
e2, _ = ece(scaled, labels)
print(f"ECE after {e2.item():.4f}", "argmax unchanged", torch.equal(scaled.argmax(1), mean_logits.argmax(1)))
conf = scaled.max(1).values
print("confidence quantiles", torch.quantile(conf, torch.tensor([0.1, 0.5, 0.9])).round(decimals=3))
print("histc", torch.histc(conf, bins=5, min=0, max=1))
