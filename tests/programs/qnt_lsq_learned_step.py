# LSQ (Learned Step Size Quantization) written by hand: a learnable scale with the gradient-scale
# trick, round-with-STE via detach, percentile calibration of the initial step from sorted |w|,
# and a short training loop printing the scale, its gradient and the graph nodes.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def grad_scale(x, scale):
    y = x
    y_grad = x * scale
    return (y - y_grad).detach() + y_grad


def round_pass(x):
    return (x.round() - x).detach() + x


class LSQQuantizer(nn.Module):
    def __init__(self, bits, signed=True):
        super().__init__()
        self.qn = -(2 ** (bits - 1)) if signed else 0
        self.qp = 2 ** (bits - 1) - 1 if signed else 2 ** bits - 1
        self.step = nn.Parameter(torch.tensor(1.0))

    def init_from(self, w, percentile=0.99):
        vals, _ = torch.sort(w.detach().abs().flatten(), stable=True)
        k = min(int(math.ceil(percentile * vals.numel())) - 1, vals.numel() - 1)
        with torch.no_grad():
            self.step.copy_(vals[k] / self.qp)
        return vals[k]

    def forward(self, x):
        g = 1.0 / math.sqrt(x.numel() * self.qp)
        s = grad_scale(self.step, g)
        q = torch.clamp(x / s, self.qn, self.qp)
        return round_pass(q) * s


class QLinear(nn.Linear):
    def __init__(self, i, o, bits=3):
        super().__init__(i, o)
        self.wq = LSQQuantizer(bits)

    def forward(self, x):
        return F.linear(x, self.wq(self.weight), self.bias)


torch.set_printoptions(precision=4)
layer = QLinear(5, 3)
with torch.no_grad():
    layer.weight.copy_(torch.sin(torch.arange(15, dtype=torch.float32) * 1.7).view(3, 5) * 0.8)
    layer.bias.copy_(torch.tensor([0.1, -0.1, 0.05]))
clip = layer.wq.init_from(layer.weight, percentile=0.9)
sorted_w, _ = torch.sort(layer.weight.abs().flatten(), descending=True, stable=True)
print("largest |w|", sorted_w[:3], "grad_fn", sorted_w.grad_fn.name())
print("clip value", f"{clip.item():.4f}", "initial step", f"{layer.wq.step.item():.4f}")

x = torch.linspace(-1, 1, 20).view(4, 5)
target = torch.cos(torch.arange(12, dtype=torch.float32)).view(4, 3) * 0.5

wq = layer.wq(layer.weight)
print("quantized weight\n", wq)
print("integer codes\n", (wq / layer.wq.step).round().to(torch.int8))
print("grad_fn chain:", type(wq.grad_fn).__name__, type(wq.grad_fn.next_functions[0][0]).__name__)

opt = torch.optim.Adam(layer.parameters(), lr=0.02)
for step in range(15):
    opt.zero_grad()
    loss = F.mse_loss(layer(x), target)
    loss.backward()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f} step_size {layer.wq.step.item():.4f} "
              f"step grad {layer.wq.step.grad.item():+.5f}")
    opt.step()

codes = (layer.wq(layer.weight) / layer.wq.step).round().to(torch.int8)
print("codes after training\n", codes)
print("used levels", torch.unique(codes).tolist(), "histogram", torch.bincount((codes - layer.wq.qn).flatten().long(), minlength=8).tolist())
print("weight grad has zeros where clipped:", (layer.weight.grad == 0).sum().item())
