# Vectorised expected calibration error: bucketize confidences into bins, then
# bincount / histc / scatter_add per bin and print a reliability table.
import torch
import torch.nn.functional as F

n = 40
x = torch.arange(n, dtype=torch.float32)
logits = torch.stack([torch.cos(x * 0.37) * 2.5, torch.sin(x * 0.21) * 3.0, torch.cos(x * 0.11 + 1.0)], 1)
labels = torch.tensor([i % 3 if i % 4 else int(logits[i].argmax()) for i in range(n)])
probs = logits.softmax(-1)
conf, pred = probs.max(-1)
correct = (pred == labels).float()

n_bins = 5
edges = torch.linspace(0, 1, n_bins + 1)
bin_ids = torch.bucketize(conf, edges[1:-1], right=True)
print("bin ids:", bin_ids.tolist())
counts = torch.bincount(bin_ids, minlength=n_bins)
print("counts:", counts)
conf_sum = torch.bincount(bin_ids, weights=conf, minlength=n_bins)
acc_sum = torch.bincount(bin_ids, weights=correct, minlength=n_bins)
print(conf_sum.dtype, acc_sum.dtype)
hist = torch.histc(conf, bins=n_bins, min=0, max=1)
print("histc:", hist)
sa = torch.zeros(n_bins).scatter_add_(0, bin_ids, conf)
print("scatter_add matches:", torch.allclose(sa, conf_sum.float()))

nonzero = counts > 0
avg_conf = torch.where(nonzero, conf_sum / counts.clamp(min=1), torch.zeros_like(conf_sum))
avg_acc = torch.where(nonzero, acc_sum / counts.clamp(min=1), torch.zeros_like(acc_sum))
ece = ((counts.float() / n) * (avg_conf - avg_acc).abs()).sum()
mce = (avg_conf - avg_acc).abs()[nonzero].max()
print(f"ECE={ece.item():.4f} MCE={mce.item():.4f}")
print("| bin        | count | conf  | acc   | gap   |")
for b in range(n_bins):
    lo, hi = edges[b].item(), edges[b + 1].item()
    print(f"| {lo:.1f} - {hi:.1f}  | {int(counts[b]):5d} | {avg_conf[b].item():.3f} | {avg_acc[b].item():.3f} | {(avg_conf[b]-avg_acc[b]).item():+.3f} |")
print(torch.bucketize(torch.tensor([0.0, 0.2, 0.5, 1.0]), edges))
print(torch.bucketize(torch.tensor([0.0, 0.2, 0.5, 1.0]), edges, right=True, out_int32=True))
print(torch.searchsorted(edges, torch.tensor([[0.1, 0.4], [0.6, 0.99]]), side="right"))
print(torch.histc(torch.tensor([1., 2., 1., 4.]), bins=4))
print(torch.bincount(torch.tensor([], dtype=torch.long)))
try:
    torch.bincount(torch.tensor([1, -1]))
except RuntimeError as e:
    print(type(e).__name__, e)
