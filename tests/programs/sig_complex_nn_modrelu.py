# A complex-valued neural network as in complexPyTorch-style code: cfloat nn.Parameter weights,
# complex matmul, modReLU and cardioid activations via abs/angle, a real loss through
# view_as_real, trained with Adam on complex parameters.
import math
import torch
import torch.nn as nn


class ComplexLinear(nn.Module):
    def __init__(self, fin, fout, offset):
        super().__init__()
        i = torch.arange(fin * fout, dtype=torch.float32).reshape(fout, fin) + offset
        w = torch.complex(torch.sin(i) * 0.4, torch.cos(1.3 * i) * 0.4)
        self.weight = nn.Parameter(w)
        self.bias = nn.Parameter(torch.zeros(fout, dtype=torch.cfloat))

    def forward(self, z):
        return z @ self.weight.T + self.bias


class ModReLU(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.b = nn.Parameter(torch.full((features,), -0.1))

    def forward(self, z):
        mag = z.abs()
        return torch.relu(mag + self.b) * z / (mag + 1e-6)


def cardioid(z):
    return 0.5 * (1 + torch.cos(z.angle())) * z


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = ComplexLinear(4, 8, 0.0)
        self.act = ModReLU(8)
        self.l2 = ComplexLinear(8, 2, 3.0)

    def forward(self, z):
        return cardioid(self.l2(self.act(self.l1(z))))


net = Net()
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.dtype, p.is_complex())

ang = torch.arange(32, dtype=torch.float32).reshape(8, 4) * 0.37
z = torch.polar(torch.ones(8, 4), ang)
target = torch.stack([z.sum(1) * 0.25, z[:, 0] * z[:, 1].conj()], dim=1)
print("input:", z.dtype, z.shape)
out = net(z)
print("out:", out.shape, out.dtype, out.grad_fn is not None)

opt = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(40):
    opt.zero_grad()
    out = net(z)
    loss = torch.view_as_real(out - target).pow(2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 39:
        print(f"step {step:2d} loss {loss.item():.4f}")

print("weight grad dtype:", net.l1.weight.grad.dtype)
print("bias after:", torch.view_as_real(net.l2.bias.detach()).round(decimals=2))
state = opt.state[net.l1.weight]
print("adam state:", sorted(state.keys()), state["exp_avg"].dtype, state["exp_avg_sq"].dtype)

w = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
l = (w * w.conj()).real.sum()
l.backward()
print("wirtinger grad:", w.grad)
e = torch.einsum("ij,jk->ik", z[:2], net.l1.weight.detach().T)
print("einsum matches:", torch.allclose(e, z[:2] @ net.l1.weight.detach().T))
