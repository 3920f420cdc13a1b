# SCINet-style sample-convolution-interaction block as in its public reimplementations: split a
# series into even/odd sub-sequences with x[:, ::2] / x[:, 1::2], ReplicationPad1d + Conv1d +
# LeakyReLU + Dropout + Conv1d + Tanh modules, exp-scaling interaction, recursion into a tree,
# and re-interleaving via stack + reshape (zip_up_the_pants) before a linear projection.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4, sci_mode=False)


def conv_mod(ch, k=3, hidden=2):
    pad = (k - 1) // 2 + 1
    return nn.Sequential(nn.ReplicationPad1d((pad, pad)), nn.Conv1d(ch, ch * hidden, k), nn.LeakyReLU(0.01, inplace=True),
                         nn.Dropout(0.0), nn.Conv1d(ch * hidden, ch, k), nn.Tanh())


class Interactor(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.phi, self.psi, self.P, self.U = conv_mod(ch), conv_mod(ch), conv_mod(ch), conv_mod(ch)

    def forward(self, x):                      # x: [B, T, C]
        even, odd = x[:, ::2, :].permute(0, 2, 1), x[:, 1::2, :].permute(0, 2, 1)
        d = odd.mul(torch.exp(self.phi(even)))
        c = even.mul(torch.exp(self.psi(odd)))
        even_update = c + self.U(d)
        odd_update = d - self.P(c)
        return even_update.permute(0, 2, 1), odd_update.permute(0, 2, 1)


class Tree(nn.Module):
    def __init__(self, ch, level):
        super().__init__()
        self.block = Interactor(ch)
        self.children_ = nn.ModuleList([Tree(ch, level - 1), Tree(ch, level - 1)]) if level > 1 else None

    @staticmethod
    def zip_up(even, odd):
        B, T, C = even.shape
        return torch.stack([even, odd], dim=2).reshape(B, 2 * T, C)

    def forward(self, x):
        e, o = self.block(x)
        if self.children_ is not None:
            e, o = self.children_[0](e), self.children_[1](o)
        return self.zip_up(e, o)


class SCINet(nn.Module):
    def __init__(self, L, H, C, levels=2):
        super().__init__()
        self.tree = Tree(C, levels)
        self.proj = nn.Conv1d(L, H, kernel_size=1, bias=False)

    def forward(self, x):
        res = x
        x = self.tree(x) + res
        return self.proj(x)


a = torch.arange(8.).view(1, 8, 1)
print("even", a[:, ::2, 0], "odd", a[:, 1::2, 0], "strides", a[:, ::2].stride())
print("zip", Tree.zip_up(a[:, ::2], a[:, 1::2])[..., 0])

L, H, C = 16, 4, 2
model = SCINet(L, H, C)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).reshape(p.shape) * 0.2)
t = torch.arange(120, dtype=torch.float32)
data = torch.stack([torch.sin(t / 4), torch.sin(t / 7) * 0.5 + 0.01 * t], -1)
win = data.unfold(0, L + H, 4).transpose(1, 2)
X, Y = win[:, :L], win[:, L:]
print("X", tuple(X.shape), "Y", tuple(Y.shape))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(25):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 24:
        print(f"step {step:2d} mse {loss.item():.5f}")
with torch.no_grad():
    print(model(X[:1])[0])
print("tree modules", sum(1 for m in model.modules() if isinstance(m, Interactor)))
