# Forum question: "empty(): argument 'size' (position 1) must be tuple of ints, but found element
# of type float at pos 0" — layer sizes computed with `/` instead of `//` in an autoencoder / CNN.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


class AutoEncoder(nn.Module):
    def __init__(self, dim=16, shrink=2, use_floor=False):
        super().__init__()
        hidden = dim // shrink if use_floor else dim / shrink
        self.enc = nn.Linear(dim, hidden)
        self.dec = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.dec(torch.relu(self.enc(x)))


attempt("dim / 2", lambda: AutoEncoder())
model = AutoEncoder(use_floor=True)
print(model)
print("fixed with //:", model(torch.ones(3, 16)).shape)


class SmallCNN(nn.Module):
    def __init__(self, channels=3, width=32, kernel=3.0):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, width / 2, 3, padding=1)
        self.conv2 = nn.Conv2d(16, width, kernel)


attempt("conv out_channels / 2", SmallCNN)
attempt("conv kernel 3.0", lambda: nn.Conv2d(3, 8, 3.0))
attempt("conv kernel from image/8", lambda: nn.Conv2d(3, 8, 28 / 8))
attempt("conv kernel int()", lambda: nn.Conv2d(3, 8, int(28 / 8)).weight.shape)
attempt("conv1d channels float", lambda: nn.Conv1d(4.0, 2, 3))
attempt("convT float", lambda: nn.ConvTranspose2d(8, 16 / 4, 2, stride=2))
attempt("stride float kept", lambda: nn.Conv2d(3, 8, 3, stride=2.0))
attempt("kernel as list", lambda: nn.Conv2d(3, 8, [3, 5]).kernel_size)
attempt("kernel tuple of 3 for 2-D", lambda: nn.Conv2d(3, 8, (3, 3, 3)))
attempt("... then forward", lambda: nn.Conv2d(1, 1, (3, 3, 3))(torch.ones(1, 1, 5, 5)))
attempt("Linear(in, out * 0.5)", lambda: nn.Linear(10, 10 * 0.5))
attempt("Bilinear float", lambda: nn.Bilinear(4, 4, 6 / 3))
attempt("Embedding(vocab, d / 2)", lambda: nn.Embedding(100, 64 / 2))
attempt("Embedding(len / 1, d)", lambda: nn.Embedding(100 / 1, 8))
attempt("torch.zeros(n / 2)", lambda: torch.zeros(10 / 2))
attempt("torch.zeros((n / 2, 3))", lambda: torch.zeros((10 / 2, 3)))
attempt("torch.zeros((3, n / 2))", lambda: torch.zeros((3, 10 / 2)))
attempt("torch.ones(3, n / 2)", lambda: torch.ones(3, 10 / 2))
attempt("randn([n / 2])", lambda: torch.randn([8 / 2]))
attempt("x.view(n / 2, -1)", lambda: torch.arange(8).view(8 / 2, -1))
attempt("x.reshape((n / 2, -1))", lambda: torch.arange(8).reshape((8 / 2, -1)))
attempt("x.reshape(n // 2, -1)", lambda: torch.arange(8).reshape(8 // 2, -1).shape)
attempt("numpy int sizes ok", lambda: nn.Linear(__import__("numpy").int64(4), 2).weight.shape)
