# Quantization-aware training by hand, as QAT tutorials show before torch.ao: weights fake-quantized
# per output channel (symmetric int8), activations per tensor (affine uint8), straight-through
# gradients, a few SGD steps, then the fake-quant error and the STE mask.
import torch
import torch.nn as nn
import torch.nn.functional as F


class QuantLinear(nn.Linear):
    def forward(self, x):
        w = self.weight
        w_scale = w.detach().abs().amax(dim=1).clamp(min=1e-8) / 127
        w_zp = torch.zeros(w.shape[0], dtype=torch.int32)
        wq = torch.fake_quantize_per_channel_affine(w, w_scale, w_zp, 0, -128, 127)
        return F.linear(x, wq, self.bias)


def quant_act(x, lo=-3.0, hi=3.0):
    scale = (hi - lo) / 255
    zero_point = int(round(-lo / scale))
    return torch.fake_quantize_per_tensor_affine(x, scale, zero_point, 0, 255)


torch.manual_seed(0)
net = nn.ModuleList([QuantLinear(4, 6), QuantLinear(6, 1)])
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.6, 0.7, p.numel()).view_as(p) * (0.5 + 0.25 * i))

x = torch.stack([torch.linspace(-2, 2, 16).sin(), torch.linspace(0, 3, 16).cos(),
                 torch.linspace(-1, 1, 16), torch.linspace(1, 2, 16).log()], dim=1)
y = (x[:, :1] * 0.8 - x[:, 2:3] * 0.3 + 0.1)

opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(30):
    h = quant_act(torch.relu(net[0](quant_act(x))))
    out = net[1](h)
    loss = F.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")

print(out.grad_fn.name(), h.grad_fn.name())
print(net[0].weight.grad.abs().sum() > 0)

# what the fake-quant does to a tensor, and where the gradient is cut
t = torch.linspace(-4, 4, 9, requires_grad=True)
q = quant_act(t)
print(q)
q.sum().backward()
print(t.grad)
w = net[0].weight.detach()
s = w.abs().amax(dim=1) / 127
wq = torch.fake_quantize_per_channel_affine(w, s, torch.zeros(6, dtype=torch.int32), 0, -128, 127)
print(f"max weight error {(wq - w).abs().max().item():.5f} <= half step {(s / 2).max().item():.5f}")

for bad in [lambda: torch.fake_quantize_per_tensor_affine(t, 0.1, 300, 0, 255),
            lambda: torch.fake_quantize_per_tensor_affine(t, 0.1, 0, 10, 5),
            lambda: torch.fake_quantize_per_channel_affine(w, s, torch.zeros(6, dtype=torch.long), 0, -128, 127),
            lambda: torch.fake_quantize_per_channel_affine(w, s[:3], torch.zeros(3, dtype=torch.int32), 0, -128, 127)]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
