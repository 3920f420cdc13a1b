# TensorRT-style entropy (KL) calibration of an int8 activation threshold from a histogram: torch.histc
# over |x|, merging bins into 128 quantized levels with integer division, KL divergence per candidate
# threshold, plus a percentile threshold via cumsum + searchsorted.
import torch

torch.set_printoptions(precision=4)
x = torch.cat([torch.sin(torch.arange(2000, dtype=torch.float32) * 0.013) * 2.0,
               torch.linspace(-6.0, 6.0, 41)])
absx = x.abs()
num_bins = 512
max_val = absx.max().item()
hist = torch.histc(absx, bins=num_bins, min=0.0, max=max_val)
bin_width = max_val / num_bins
print("max", f"{max_val:.4f}", "hist dtype", hist.dtype, "total", int(hist.sum().item()))
print("first bins", hist[:8])
print("nonzero bins", torch.count_nonzero(hist).item())


def kl_for_threshold(hist, i, num_quant=128):
    p = hist[:i].clone()
    p[i - 1] += hist[i:].sum()
    nonzero = (hist[:i] != 0)
    # merge i bins into num_quant groups using integer positions
    group = torch.div(torch.arange(i) * num_quant, i, rounding_mode="floor")
    q_sum = torch.zeros(num_quant).index_add_(0, group, hist[:i])
    q_cnt = torch.zeros(num_quant).index_add_(0, group, nonzero.float())
    q = torch.where(nonzero, q_sum[group] / q_cnt[group].clamp(min=1), torch.zeros(()))
    p = p / p.sum()
    q = q / q.sum().clamp(min=1e-12)
    mask = (p > 0) & (q > 0)
    return (p[mask] * (p[mask] / q[mask]).log()).sum(), int(mask.sum())


results = []
for i in range(128, num_bins + 1, 64):
    kl, used = kl_for_threshold(hist, i)
    results.append((i, kl.item()))
    print(f"bins {i:3d} threshold {(i + 0.5) * bin_width:.3f} kl {kl.item():.5f} used {used}")

best_i = min(results, key=lambda r: r[1])[0]
threshold = (best_i + 0.5) * bin_width
print("best threshold", f"{threshold:.3f}", "scale", f"{threshold / 127:.5f}")

cdf = torch.cumsum(hist, dim=0) / hist.sum()
for pct in [0.9, 0.99, 0.999]:
    idx = torch.searchsorted(cdf, torch.tensor([pct])).item()
    print(f"percentile {pct}: bin {idx} threshold {(idx + 1) * bin_width:.3f}")

scale = threshold / 127
q = torch.clamp(torch.round(x / scale), -127, 127).to(torch.int8)
print("saturated", int((q.abs() == 127).sum()), "zero codes", int((q == 0).sum()))
err = (q.float() * scale - x).pow(2).mean()
print("mse", f"{err.item():.6f}")
print("bucketize edges", torch.bucketize(torch.tensor([0.0, 0.5, 2.0, 5.9]), torch.linspace(0, 6, 7)))
