# StackOverflow: layers fed the wrong input — conv rank/channels, pooling output too small,
# BatchNorm with batch size 1, LSTM input_size, LayerNorm shape, broadcasting in elementwise ops.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", tuple(out.shape) if isinstance(out, torch.Tensor) else out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


# Q: "Expected 3D (unbatched) or 4D (batched) input to conv2d"
conv = nn.Conv2d(3, 8, kernel_size=3)
img = torch.linspace(0, 1, 3 * 28 * 28).view(3, 28, 28)
attempt("conv 2d input", lambda: conv(img[0]))
attempt("conv 3d unbatched", lambda: conv(img))
attempt("conv 5d", lambda: conv(img.view(1, 1, 3, 28, 28)))
attempt("conv channels last", lambda: conv(img.permute(1, 2, 0).unsqueeze(0)))
attempt("conv fix permute", lambda: conv(img.permute(1, 2, 0).permute(2, 0, 1).unsqueeze(0)))
attempt("conv kernel too big", lambda: nn.Conv2d(3, 8, 5)(torch.ones(1, 3, 4, 4)))
attempt("conv1d 2d", lambda: nn.Conv1d(4, 2, 3)(torch.ones(4, 10)))
attempt("conv1d channels", lambda: nn.Conv1d(4, 2, 3)(torch.ones(2, 10, 4)))
attempt("conv padding same stride", lambda: nn.Conv2d(3, 8, 3, stride=2, padding="same"))
attempt("conv groups", lambda: nn.Conv2d(3, 8, 3, groups=2))

# Q: "Output size is too small"
attempt("maxpool too small", lambda: nn.MaxPool2d(2)(torch.ones(1, 16, 1, 1)))
attempt("avgpool too small", lambda: nn.AvgPool2d(3)(torch.ones(1, 4, 2, 2)))
attempt("maxpool pad", lambda: nn.MaxPool2d(2, padding=2)(torch.ones(1, 1, 4, 4)))
attempt("adaptive fix", lambda: nn.AdaptiveAvgPool2d(1)(torch.ones(1, 16, 1, 1)))

# Q: "Expected more than 1 value per channel when training"
bn = nn.BatchNorm1d(4)
attempt("bn batch 1", lambda: bn(torch.ones(1, 4)))
attempt("bn eval batch 1", lambda: bn.eval()(torch.ones(1, 4)))
attempt("bn wrong features", lambda: nn.BatchNorm1d(4)(torch.ones(3, 5)))
attempt("bn2d 2d input", lambda: nn.BatchNorm2d(4)(torch.ones(3, 4)))
attempt("bn1d 4d input", lambda: nn.BatchNorm1d(4)(torch.ones(2, 4, 3, 3)))

# Q: "input.size(-1) must be equal to input_size"
lstm = nn.LSTM(input_size=10, hidden_size=4, batch_first=True)
attempt("lstm wrong size", lambda: lstm(torch.ones(2, 7, 5)))
attempt("lstm 4d", lambda: lstm(torch.ones(2, 7, 10, 1)))
attempt("lstm ok", lambda: [tuple(o.shape) for o in (lambda r: (r[0], *r[1]))(lstm(torch.ones(2, 7, 10)))])
attempt("lstm bad h0", lambda: lstm(torch.ones(2, 7, 10), (torch.zeros(1, 3, 4), torch.zeros(1, 3, 4))))
attempt("lstm h0 not tuple", lambda: lstm(torch.ones(2, 7, 10), torch.zeros(1, 2, 4)))
attempt("gru bad h0", lambda: [tuple(o.shape) for o in nn.GRU(10, 4)(torch.ones(7, 2, 10), torch.zeros(2, 2, 4))])
attempt("rnn long input", lambda: nn.RNN(3, 2)(torch.ones(4, 1, 3, dtype=torch.long)))

# Q: LayerNorm / Embedding / Linear mismatches
attempt("layernorm shape", lambda: nn.LayerNorm(8)(torch.ones(2, 4)))
attempt("layernorm 2d shape", lambda: nn.LayerNorm([3, 4])(torch.ones(2, 4, 3)))
attempt("embedding negative", lambda: nn.Embedding(10, 3)(torch.tensor([-1])))
attempt("embedding padding_idx", lambda: nn.Embedding(10, 3, padding_idx=10))
attempt("flatten then linear", lambda: nn.Sequential(nn.Flatten(), nn.Linear(12, 2))(torch.ones(2, 3, 5)))

# Q: "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
a = torch.ones(2, 3)
attempt("add", lambda: a + torch.ones(4))
attempt("mul 3d", lambda: torch.ones(2, 3, 4) * torch.ones(2, 4))
attempt("mul fix", lambda: torch.ones(2, 3, 4) * torch.ones(2, 4).unsqueeze(1))
attempt("sub column", lambda: a - torch.ones(3, 1))
attempt("where", lambda: torch.where(a > 0, a, torch.zeros(4)))
attempt("expand", lambda: torch.ones(3, 2).expand(3, 4))
attempt("expand fewer dims", lambda: torch.ones(2, 3).expand(3))
attempt("expand_as", lambda: torch.ones(2, 1).expand_as(a))
attempt("repeat fewer", lambda: a.repeat(2))
attempt("masked_fill mask", lambda: a.masked_fill(torch.tensor([True, False]), 0.0))
attempt("mse warn shapes", lambda: F.l1_loss(torch.ones(4, 1), torch.ones(4)))
