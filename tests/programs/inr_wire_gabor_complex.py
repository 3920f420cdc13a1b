# WIRE (wavelet implicit neural representation): complex Gabor activation
# exp(1j*omega*x - |s*x|^2) on complex-valued linear layers, real part as output, Adam.
import torch
import torch.nn as nn


class ComplexGaborLayer(nn.Module):
    def __init__(self, in_f, out_f, omega0=10.0, sigma0=10.0, is_first=False):
        super().__init__()
        self.omega0, self.scale0 = omega0, sigma0
        dtype = torch.float32 if is_first else torch.cfloat
        self.linear = nn.Linear(in_f, out_f, dtype=dtype)
        with torch.no_grad():
            n = self.linear.weight.numel()
            k = torch.arange(n, dtype=torch.float32).view(out_f, in_f)
            w = 0.3 * torch.sin(1.3 * k) / in_f
            if is_first:
                self.linear.weight.copy_(w)
                self.linear.bias.copy_(0.1 * torch.cos(torch.arange(out_f, dtype=torch.float32)))
            else:
                self.linear.weight.copy_(torch.complex(w, 0.2 * torch.cos(k) / in_f))
                self.linear.bias.copy_(torch.complex(torch.zeros(out_f), 0.05 * torch.ones(out_f)))

    def forward(self, x):
        lin = self.linear(x)
        omega = self.omega0 * lin
        scale = self.scale0 * lin
        return torch.exp(1j * omega - scale.abs().square())


class Wire(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.ModuleList([ComplexGaborLayer(1, hidden, is_first=True), ComplexGaborLayer(hidden, hidden)])
        self.last = nn.Linear(hidden, 1, dtype=torch.cfloat)
        with torch.no_grad():
            self.last.weight.copy_(torch.complex(torch.linspace(-0.5, 0.5, hidden), torch.zeros(hidden)).unsqueeze(0))
            self.last.bias.zero_()

    def forward(self, x):
        for layer in self.net:
            x = layer(x)
        return self.last(x).real


x = torch.linspace(-1, 1, 40).unsqueeze(1)
y = torch.sign(x) * (1 - x.abs()) + 0.1 * torch.cos(10 * x)
model = Wire()
print([(n, p.dtype) for n, p in model.named_parameters()])
h = model.net[0](x)
print("first activation", h.dtype, tuple(h.shape), f"{h.abs().mean().item():.4f}")
out = model(x)
print("out", out.dtype, tuple(out.shape))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(25):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        print(f"step {step:2d} loss {loss.item():.4f}")
g = model.net[1].linear.weight.grad
print("complex grad", g.dtype, f"{g.abs().sum().item():.4f}")
