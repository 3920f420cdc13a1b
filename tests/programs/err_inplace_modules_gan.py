# Forum question: "one of the variables needed for gradient computation has been modified by an
# inplace operation: [torch.FloatTensor [4, 3]], which is output 0 of ReluBackward0, is at version 1"
# from nn.ReLU(inplace=True), residual "x += ..." and GAN loops that step before the second backward.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


def fill(module, scale=0.1):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.linspace(-scale, scale, p.numel()).view_as(p) * (i + 1))
    return module


x = torch.linspace(-1, 1, 12).view(4, 3)

# inplace ReLU right after a sigmoid/tanh (their backward needs their output)
for act in (nn.Sigmoid(), nn.Tanh(), nn.Linear(3, 3)):
    net = fill(nn.Sequential(nn.Linear(3, 3), act, nn.ReLU(inplace=True)))
    attempt(f"{type(act).__name__} + ReLU(inplace)", lambda: (net(x).sum().backward(), "ok")[1])

# residual block with x += ...
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.act = nn.ReLU()

    def forward(self, h):
        out = self.act(h)
        out += self.fc(out)
        return out


blk = fill(Block())
attempt("residual out += fc(out)", lambda: (blk(x).sum().backward(), "ok")[1])


class BlockFixed(Block):
    def forward(self, h):
        out = self.act(h)
        return out + self.fc(out)


blk = fill(BlockFixed())
blk(x).sum().backward()
print("fixed residual grad:", blk.fc.weight.grad)

# in-place on a tensor used by matmul
w = torch.ones(3, 2, requires_grad=True)
h = x @ w
y = h * h
h.mul_(2)
attempt("mul_ after saved", lambda: y.sum().backward())
h2 = x @ w
h2.add_(1)
attempt("add_ on mm output (not saved)", lambda: (h2.sum().backward(), w.grad)[1])
z = torch.exp(x @ w)
z[0, 0] = 0.0
attempt("setitem on exp output", lambda: z.sum().backward())
s = torch.softmax(x @ w, dim=1)
s /= 2
attempt("softmax /= 2", lambda: s.sum().backward())

# GAN-style: generator loss backward after the discriminator step changed its weights
G = fill(nn.Linear(2, 3), 0.3)
D = fill(nn.Sequential(nn.Linear(3, 1), nn.Sigmoid()), 0.2)
opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
noise = torch.linspace(-1, 1, 8).view(4, 2)
fake = G(noise)
d_loss = -torch.log(1 - D(fake)).mean()
g_loss = -torch.log(D(fake)).mean()
opt_d.zero_grad()
d_loss.backward(retain_graph=True)
opt_d.step()
attempt("g_loss after D step", lambda: g_loss.backward())
fake = G(noise)
opt_d.zero_grad()
d_loss = -torch.log(1 - D(fake.detach())).mean()
d_loss.backward()
opt_d.step()
g_loss = -torch.log(D(fake)).mean()
g_loss.backward()
print("detach fix ok:", G.weight.grad.shape, f"{g_loss.item():.4f}")
attempt("second backward g_loss", lambda: g_loss.backward())
