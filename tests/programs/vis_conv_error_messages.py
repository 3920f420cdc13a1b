# The conv-net error messages people paste into forums, reproduced and caught: channel mismatch,
# grouped-channel divisibility, kernel larger than input, wrong input rank, float/double and
# input/weight dtype mixes, Linear after a conv with the wrong flattened size, BatchNorm channel
# mismatch, pooling too small, and the shape arithmetic that fixes each.
import torch
import torch.nn as nn
import torch.nn.functional as F

conv = nn.Conv2d(3, 8, 3)
cases = {
    "channels": lambda: conv(torch.zeros(1, 4, 8, 8)),
    "rank2": lambda: conv(torch.zeros(8, 8)),
    "rank5": lambda: conv(torch.zeros(1, 1, 3, 8, 8)),
    "small": lambda: conv(torch.zeros(1, 3, 2, 2)),
    "double_input": lambda: conv(torch.zeros(1, 3, 8, 8, dtype=torch.float64)),
    "int_input": lambda: conv(torch.zeros(1, 3, 8, 8, dtype=torch.long)),
    "groups_in": lambda: nn.Conv2d(3, 6, 3, groups=2),
    "groups_out": lambda: nn.Conv2d(4, 6, 3, groups=4),
    "groups_weight": lambda: F.conv2d(torch.zeros(1, 4, 5, 5), torch.zeros(6, 4, 3, 3), groups=2),
    "stride0": lambda: F.conv2d(torch.zeros(1, 3, 5, 5), conv.weight, stride=0),
    "neg_pad": lambda: F.conv2d(torch.zeros(1, 3, 5, 5), conv.weight, padding=-1),
    "same_stride": lambda: nn.Conv2d(3, 3, 3, stride=2, padding="same"),
    "weight_rank": lambda: F.conv2d(torch.zeros(1, 3, 5, 5), torch.zeros(8, 3, 3)),
    "bias_size": lambda: F.conv2d(torch.zeros(1, 3, 5, 5), conv.weight, torch.zeros(5)),
    "conv1d_rank": lambda: nn.Conv1d(2, 2, 3)(torch.zeros(1, 2, 3, 3)),
    "linear_flat": lambda: nn.Sequential(conv, nn.Flatten(), nn.Linear(100, 2))(torch.zeros(2, 3, 8, 8)),
    "bn_channels": lambda: nn.BatchNorm2d(4)(torch.zeros(2, 3, 4, 4)),
    "bn_rank": lambda: nn.BatchNorm2d(3)(torch.zeros(2, 3)),
    "pool_small": lambda: nn.MaxPool2d(3)(torch.zeros(1, 1, 2, 2)),
    "pool_pad": lambda: nn.MaxPool2d(2, padding=2)(torch.zeros(1, 1, 6, 6)),
    "avgpool_pad": lambda: nn.AvgPool2d(3, padding=2)(torch.zeros(1, 1, 6, 6)),
    "adaptive_neg": lambda: F.adaptive_avg_pool2d(torch.zeros(1, 1, 4, 4), (0, 2)),
    "convT_channels": lambda: nn.ConvTranspose2d(4, 2, 3)(torch.zeros(1, 3, 4, 4)),
    "upsample_none": lambda: nn.Upsample()(torch.zeros(1, 1, 2, 2)),
    "pixelshuffle": lambda: nn.PixelShuffle(3)(torch.zeros(1, 8, 2, 2)),
    "weight_half": lambda: F.conv2d(torch.zeros(1, 3, 5, 5), conv.weight.double()),
}
for name, fn in cases.items():
    try:
        out = fn()
        print(name, "OK", tuple(out.shape))
    except (RuntimeError, ValueError, TypeError, NotImplementedError) as e:
        print(name, type(e).__name__, str(e).split("\n")[0])

# the fixes
x = torch.zeros(2, 3, 8, 8)
feat = conv(x)
print(feat.shape, feat.flatten(1).shape[1], nn.Linear(feat[0].numel(), 2)(feat.flatten(1)).shape)
print(conv(x.double().float()).dtype, nn.Conv2d(3, 8, 3).double()(x.double()).dtype)
print(conv(x[0]).shape, conv(x.unsqueeze(0)[0]).shape)
