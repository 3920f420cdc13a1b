# Forum question: "Expected 3D (unbatched) or 4D (batched) input to conv2d", channel mismatches,
# kernel bigger than the image, and "Expected more than 1 value per channel when training".
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


conv = nn.Conv2d(3, 8, kernel_size=3, padding=1)
img = torch.linspace(0, 1, 3 * 28 * 28).view(3, 28, 28)
attempt("2-D input", lambda: conv(img[0]))
attempt("3-D unbatched ok", lambda: conv(img).shape)
attempt("5-D input", lambda: conv(img.view(1, 1, 3, 28, 28)))
attempt("grayscale into RGB conv", lambda: conv(torch.zeros(4, 1, 28, 28)))
attempt("channels last (NHWC)", lambda: conv(torch.zeros(4, 28, 28, 3)))
attempt("permute fix", lambda: conv(torch.zeros(4, 28, 28, 3).permute(0, 3, 1, 2)).shape)
attempt("kernel too big", lambda: nn.Conv2d(3, 8, 5)(torch.zeros(1, 3, 4, 4)))
attempt("double input", lambda: conv(torch.zeros(1, 3, 8, 8, dtype=torch.float64)))
attempt("long input", lambda: conv(torch.zeros(1, 3, 8, 8, dtype=torch.long)))
attempt("padding='same' stride 2", lambda: nn.Conv2d(3, 8, 3, stride=2, padding="same"))
attempt("padding='valid'", lambda: nn.Conv2d(3, 8, 3, padding="valid")(torch.zeros(1, 3, 8, 8)).shape)
attempt("groups not divisible", lambda: nn.Conv2d(3, 8, 3, groups=2))
attempt("out not divisible", lambda: nn.Conv2d(4, 6, 3, groups=4))
attempt("F.conv2d weight rank", lambda: F.conv2d(torch.zeros(1, 3, 8, 8), torch.zeros(8, 3, 3)))
attempt("F.conv2d bias size", lambda: F.conv2d(torch.zeros(1, 3, 8, 8), torch.zeros(8, 3, 3, 3), torch.zeros(4)))

conv1 = nn.Conv1d(4, 2, 3)
attempt("conv1d 4-D input", lambda: conv1(torch.zeros(2, 4, 10, 1)))
attempt("conv1d wrong channels", lambda: conv1(torch.zeros(2, 10, 4)))
attempt("conv1d transpose fix", lambda: conv1(torch.zeros(2, 10, 4).transpose(1, 2)).shape)
attempt("conv1d 1-D input", lambda: conv1(torch.zeros(10)))
attempt("conv3d 4-D ok", lambda: nn.Conv3d(1, 2, 3)(torch.zeros(1, 5, 5, 5)).shape)
attempt("conv3d 3-D", lambda: nn.Conv3d(1, 2, 3)(torch.zeros(5, 5, 5)))

# pooling after too many downsamples
attempt("maxpool too small", lambda: F.max_pool2d(torch.zeros(1, 1, 1, 1), 2))
attempt("avgpool too small", lambda: F.avg_pool2d(torch.zeros(1, 1, 1, 1), 2))
attempt("maxpool 1-D input", lambda: F.max_pool2d(torch.zeros(4), 2))

bn = nn.BatchNorm1d(4)
attempt("BN batch 1 training", lambda: bn(torch.ones(1, 4)))
attempt("BN batch 1 eval", lambda: bn.eval()(torch.ones(1, 4)))
bn.train()
attempt("BN 3-D batch 1 ok", lambda: bn(torch.ones(1, 4, 3)).shape)
attempt("BN 3-D length 1", lambda: bn(torch.ones(1, 4, 1)))
attempt("BN wrong features", lambda: bn(torch.ones(3, 5)))
attempt("BN 1-D input", lambda: bn(torch.ones(4)))
attempt("BN 4-D into BN1d", lambda: bn(torch.ones(2, 4, 3, 3)))
bn2 = nn.BatchNorm2d(8)
attempt("BN2d batch 1 1x1", lambda: bn2(torch.ones(1, 8, 1, 1)))
attempt("BN2d batch 1 2x2 ok", lambda: bn2(torch.ones(1, 8, 2, 2)).shape)
attempt("BN2d 3-D input", lambda: bn2(torch.ones(8, 4, 4)))
attempt("BN2d wrong channels", lambda: bn2(torch.ones(2, 3, 4, 4)))
attempt("F.batch_norm no stats", lambda: F.batch_norm(torch.ones(2, 3), None, None, training=False))
attempt("F.batch_norm training ok", lambda: F.batch_norm(torch.arange(6.).view(2, 3), None, None, training=True))
attempt("LayerNorm wrong shape", lambda: nn.LayerNorm(5)(torch.ones(2, 4)))
attempt("LayerNorm multi-dim", lambda: nn.LayerNorm([3, 4])(torch.ones(2, 4, 3)))
attempt("GroupNorm not divisible", lambda: nn.GroupNorm(3, 8))
attempt("GroupNorm wrong channels", lambda: nn.GroupNorm(2, 8)(torch.ones(2, 6, 4)))
attempt("InstanceNorm1d 2-D", lambda: nn.InstanceNorm1d(3)(torch.arange(12.).view(3, 4)))
