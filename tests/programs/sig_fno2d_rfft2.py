# A 2-d Fourier neural operator block: rfft2 of the features, complex einsum with cfloat weights
# on the lowest modes (both corners of the first frequency axis), irfft2 back, with grads into
# the complex weights and a few Adam steps.
import torch
import torch.nn as nn


class SpectralConv2d(nn.Module):
    def __init__(self, cin, cout, m1, m2):
        super().__init__()
        self.m1, self.m2 = m1, m2
        n = cin * cout * m1 * m2
        base = torch.arange(n, dtype=torch.float32).reshape(cin, cout, m1, m2)
        scale = 1.0 / (cin * cout)
        self.w1 = nn.Parameter(scale * torch.complex(torch.cos(base * 0.3), torch.sin(base * 0.7)))
        self.w2 = nn.Parameter(scale * torch.complex(torch.sin(base * 0.5), torch.cos(base * 0.2)))

    @staticmethod
    def mul(a, w):
        return torch.einsum("bixy,ioxy->boxy", a, w)

    def forward(self, x):
        b, c, h, w = x.shape
        x_ft = torch.fft.rfft2(x)
        out = torch.zeros(b, self.w1.shape[1], h, w // 2 + 1, dtype=torch.cfloat)
        out[:, :, :self.m1, :self.m2] = self.mul(x_ft[:, :, :self.m1, :self.m2], self.w1)
        out[:, :, -self.m1:, :self.m2] = self.mul(x_ft[:, :, -self.m1:, :self.m2], self.w2)
        return torch.fft.irfft2(out, s=(h, w))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.spec = SpectralConv2d(3, 3, 3, 3)
        self.skip = nn.Conv2d(3, 3, 1)
        with torch.no_grad():
            self.skip.weight.copy_(torch.eye(3).view(3, 3, 1, 1) * 0.5)
            self.skip.bias.zero_()

    def forward(self, x):
        return torch.nn.functional.gelu(self.spec(x) + self.skip(x))


torch.set_printoptions(precision=4)
gx, gy = torch.meshgrid(torch.linspace(0, 1, 12), torch.linspace(0, 1, 10), indexing="ij")
x = torch.stack([torch.sin(6.28 * gx), torch.cos(6.28 * gy), gx * gy]).unsqueeze(0).repeat(2, 1, 1, 1)
x[1] *= 0.5
target = torch.roll(x, 1, dims=-1)
block = Block()
print({k: (tuple(v.shape), v.dtype) for k, v in block.state_dict().items()})
y = block(x)
print("out:", y.shape, y.dtype, y.grad_fn.name())
print(y[0, 0, :2, :4])
opt = torch.optim.Adam(block.parameters(), lr=5e-3)
for step in range(15):
    opt.zero_grad()
    loss = nn.functional.mse_loss(block(x), target)
    loss.backward()
    if step == 0:
        print("w1 grad:", block.spec.w1.grad.dtype, block.spec.w1.grad.shape)
        print(f"w1 grad norm {block.spec.w1.grad.norm().item():.5f}")
    opt.step()
    if step % 5 == 4:
        print(f"step {step + 1} loss {loss.item():.5f}")
print(block.spec.w2.detach()[0, 0, 0])
