# Feature binning and calibration: bucketize/searchsorted (right, side, sorter, out_int32),
# quantile-based bins, expected calibration error, digitizing timestamps.
import torch

torch.set_printoptions(precision=4)
boundaries = torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0])
x = torch.tensor([-0.1, 0.0, 0.1, 0.25, 0.5, 0.74, 0.75, 1.0, 1.2])
print(torch.bucketize(x, boundaries))
print(torch.bucketize(x, boundaries, right=True))
print(torch.bucketize(x, boundaries, out_int32=True).dtype)
print(torch.searchsorted(boundaries, x))
print(torch.searchsorted(boundaries, x, side="right"))
print(torch.searchsorted(boundaries, x, right=True))
print(torch.searchsorted(boundaries, 0.5))
unsorted = torch.tensor([0.75, 0.0, 1.0, 0.25, 0.5])
sorter = unsorted.argsort()
print(torch.searchsorted(unsorted, x, sorter=sorter))
rows = torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
print(torch.searchsorted(rows, torch.tensor([[4, 7], [1, 9]])))
try:
    torch.searchsorted(rows, torch.tensor([[4, 7]]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.searchsorted(boundaries, x, side="left", right=True)
except RuntimeError as e:
    print(type(e).__name__, e)

# quantile bins
feat = torch.sin(torch.arange(30, dtype=torch.float32) * 1.3) * 10
qs = torch.quantile(feat, torch.tensor([0.25, 0.5, 0.75]))
print("quantiles", qs)
bins = torch.bucketize(feat, qs)
print(bins)
print(torch.bincount(bins, minlength=4))
print(torch.quantile(feat, 0.3, interpolation="nearest"), torch.quantile(feat, 0.3, interpolation="midpoint"))
print(torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0, 2.0]), 0.5))

# expected calibration error
conf = torch.linspace(0.05, 0.95, 19)
correct = (torch.arange(19) % 3 != 0).float()
edges = torch.linspace(0, 1, 6)
bin_id = torch.bucketize(conf, edges[1:-1])
n_bins = 5
bin_count = torch.zeros(n_bins).index_add_(0, bin_id, torch.ones_like(conf))
bin_conf = torch.zeros(n_bins).index_add_(0, bin_id, conf) / bin_count
bin_acc = torch.zeros(n_bins).index_add_(0, bin_id, correct) / bin_count
ece = (bin_count / conf.numel() * (bin_conf - bin_acc).abs()).sum()
print(bin_count, bin_conf, bin_acc)
print(f"ECE {ece.item():.4f}")

# digitize timestamps into days then per-day sums with scatter_add
ts = torch.tensor([0, 5, 23, 24, 30, 47, 48, 70, 71])
day = torch.div(ts, 24, rounding_mode="floor")
amount = torch.arange(1.0, 10.0)
per_day = torch.zeros(int(day.max()) + 1).scatter_add_(0, day, amount)
print(per_day)
print(torch.searchsorted(torch.tensor([0, 24, 48]), ts, right=True) - 1)
print(torch.bucketize(torch.tensor(3), torch.tensor([1, 5])))
print(torch.bucketize(torch.tensor([[0.3, 0.9], [0.6, 0.1]]), boundaries))
