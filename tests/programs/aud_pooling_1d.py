# 1-D pooling used on audio feature sequences: AvgPool1d (ceil_mode, count_include_pad), MaxPool1d
# (dilation, return_indices) with MaxUnpool1d, AdaptiveAvg/MaxPool1d for utterance-level embeddings, LPPool1d.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.sin(torch.arange(2 * 3 * 11, dtype=torch.float32).reshape(2, 3, 11) * 0.9)
print(x[0, 0].round(decimals=4))

pools = [
    nn.AvgPool1d(3), nn.AvgPool1d(3, stride=2, padding=1), nn.AvgPool1d(3, 2, 1, count_include_pad=False),
    nn.AvgPool1d(4, 3, ceil_mode=True), nn.AvgPool1d(4, 3, 1, ceil_mode=True, count_include_pad=False),
    nn.MaxPool1d(3), nn.MaxPool1d(3, 2, padding=1), nn.MaxPool1d(2, dilation=3), nn.MaxPool1d(4, 3, ceil_mode=True),
    nn.AdaptiveAvgPool1d(4), nn.AdaptiveAvgPool1d(1), nn.AdaptiveMaxPool1d(3), nn.LPPool1d(2, 3), nn.LPPool1d(1.5, 4, 2),
]
for p in pools:
    y = p(x)
    print(p, tuple(y.shape), y[0, 0].round(decimals=4))

mp = nn.MaxPool1d(3, stride=2, return_indices=True)
y, idx = mp(x)
print(idx[0])
un = nn.MaxUnpool1d(3, stride=2)
print(un, un(y, idx).shape, un(y, idx, output_size=x.shape).shape)
print(un(y, idx)[0, 0].round(decimals=4))
y2, idx2 = F.adaptive_max_pool1d(x, 2, return_indices=True)
print(y2[1], idx2[1])

# statistics pooling (x-vector): mean and std over time
feats = torch.cos(torch.arange(2 * 4 * 9, dtype=torch.float32).reshape(2, 4, 9))
stats = torch.cat([feats.mean(-1), feats.std(-1)], dim=1)
print(stats.shape, stats.round(decimals=4))
print(torch.allclose(F.adaptive_avg_pool1d(feats, 1).squeeze(-1), feats.mean(-1)))

# grads
xg = x.clone().requires_grad_(True)
F.max_pool1d(xg, 3, 2, padding=1).sum().backward()
print(xg.grad[0, 0])
xg.grad = None
F.avg_pool1d(xg, 4, 3, ceil_mode=True, count_include_pad=False, padding=1).sum().backward()
print(xg.grad[0, 0].round(decimals=4))
xg.grad = None
F.adaptive_avg_pool1d(xg, 4).sum().backward()
print(xg.grad[0, 0].round(decimals=4))
xg.grad = None
F.lp_pool1d(xg, 2, 3).sum().backward()
print(xg.grad[0, 0].round(decimals=4))

# unbatched (C, L)
print(nn.AvgPool1d(2)(x[0]).shape, nn.MaxPool1d(2)(x[0]).shape, nn.AdaptiveAvgPool1d(5)(x[0]).shape)

for bad in [lambda: nn.MaxPool1d(3, padding=2)(x), lambda: nn.AvgPool1d(3, padding=2)(x),
            lambda: nn.MaxPool1d(20)(x), lambda: nn.AdaptiveAvgPool1d(0)(x),
            lambda: nn.AvgPool1d(0)(x), lambda: F.max_pool1d(x, 2, stride=0)]:
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
