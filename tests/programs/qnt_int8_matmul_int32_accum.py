# Hand-written int8 inference of a Linear layer: asymmetric uint8 activations, symmetric per-channel
# int8 weights, int32 accumulation of the integer matmul (emulated with .to(torch.int32)),
# zero-point correction and dequantization, compared against the float result.
import torch
import torch.nn as nn


def quantize_activation(x, num_bits=8):
    qmin, qmax = 0, 2 ** num_bits - 1
    x_min, x_max = x.min().clamp(max=0.0), x.max().clamp(min=0.0)
    scale = (x_max - x_min) / (qmax - qmin)
    zero_point = (qmin - torch.round(x_min / scale)).clamp(qmin, qmax).to(torch.int32)
    q = torch.clamp(torch.round(x / scale) + zero_point, qmin, qmax).to(torch.uint8)
    return q, scale, zero_point


def quantize_weight_per_channel(w, num_bits=8):
    qmax = 2 ** (num_bits - 1) - 1
    scale = w.abs().amax(dim=1) / qmax
    q = torch.clamp(torch.round(w / scale[:, None]), -qmax, qmax).to(torch.int8)
    return q, scale


def int8_linear(q_x, x_scale, x_zp, q_w, w_scale, bias):
    acc = q_x.to(torch.int32) @ q_w.to(torch.int32).t()
    # subtract zero-point contribution: zp * sum_k w[n, k]
    acc = acc - x_zp * q_w.to(torch.int32).sum(dim=1)
    out = acc.to(torch.float32) * (x_scale * w_scale)
    return out + bias


layer = nn.Linear(6, 4)
with torch.no_grad():
    layer.weight.copy_(torch.sin(torch.arange(24, dtype=torch.float32)).view(4, 6) * 0.7)
    layer.bias.copy_(torch.linspace(-0.2, 0.3, 4))

x = torch.cos(torch.arange(18, dtype=torch.float32) * 0.37).view(3, 6) * 2 + 0.5

q_x, x_scale, x_zp = quantize_activation(x)
q_w, w_scale = quantize_weight_per_channel(layer.weight.detach())
print("q_x", q_x.dtype, q_x)
print("x_scale", f"{x_scale.item():.6f}", "zero_point", x_zp, x_zp.dtype)
print("q_w", q_w.dtype)
print(q_w)
print("w_scale", w_scale)

acc = q_x.to(torch.int32) @ q_w.to(torch.int32).t()
print("int32 accumulator", acc.dtype, acc)
print("row sums of q_w", q_w.to(torch.int32).sum(dim=1), q_w.sum(dim=1).dtype)

y_int = int8_linear(q_x, x_scale, x_zp, q_w, w_scale, layer.bias.detach())
with torch.no_grad():
    y_ref = layer(x)
print("int8 result\n", y_int.round(decimals=3))
print("float result\n", y_ref.round(decimals=3))
err = (y_int - y_ref).abs().max()
print("max abs err small:", bool(err < 0.05))

# dequantize round trip
x_hat = (q_x.to(torch.float32) - x_zp) * x_scale
print("roundtrip err <= scale/2:", bool(((x_hat - x).abs() <= x_scale / 2 + 1e-6).all()))
print("unique codes:", torch.unique(q_x).numel(), "min/max", q_x.min().item(), q_x.max().item())

# int8 matmul directly is not supported on CPU for int8? users try it
try:
    r = q_w @ q_w.t()
    print("int8 @ int8 ->", r.dtype, r)
except RuntimeError as e:
    print(type(e).__name__, e)
