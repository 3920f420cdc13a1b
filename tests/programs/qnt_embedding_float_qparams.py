# Row-wise uint8 quantization of an embedding table with float zero points ("float qparams", as
# used for embedding bags): per-row scale = (max - min) / 255 and zero_point = -min / scale kept as
# a float, torch.fake_quantize_per_channel_affine for QAT, a manual uint8 round trip, and the
# straight-through gradient reaching the table through EmbeddingBag.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
num, dim = 6, 5
emb = nn.EmbeddingBag(num, dim, mode="sum")
with torch.no_grad():
    emb.weight.copy_(torch.sin(torch.arange(num * dim, dtype=torch.float32) * 0.7).view(num, dim)
                     * torch.linspace(0.5, 2.0, num)[:, None])

w = emb.weight.detach()
wmin, wmax = torch.aminmax(w, dim=1)
scale = (wmax - wmin) / 255
zero_point = -wmin / scale          # float, not rounded
print("scale", scale)
print("zero_point", zero_point)

fq = torch.fake_quantize_per_channel_affine(w, scale, zero_point, 0, 0, 255)
manual_codes = torch.clamp(torch.round(w / scale[:, None] + zero_point[:, None]), 0, 255)
manual = (manual_codes - zero_point[:, None]) * scale[:, None]
print("fake-quant == manual:", torch.allclose(fq, manual, atol=1e-6))
print("max error <= scale/2:", bool(((fq - w).abs() <= scale[:, None] / 2 + 1e-6).all()))

codes_u8 = manual_codes.to(torch.uint8)
print("codes row 0", codes_u8[0])
print("row min/max codes", codes_u8.amin(dim=1).tolist(), codes_u8.amax(dim=1).tolist())
deq = (codes_u8.float() - zero_point[:, None]) * scale[:, None]
print("dequant matches fake-quant:", torch.allclose(deq, fq, atol=1e-6))

# integer zero points instead (rounded), for comparison
zp_int = torch.round(zero_point).to(torch.int32)
fq_int = torch.fake_quantize_per_channel_affine(w, scale, zp_int, 0, 0, 255)
print("int zero points", zp_int.tolist())
print("float vs int zp max diff", f"{(fq - fq_int).abs().max().item():.5f}")
try:
    torch.fake_quantize_per_channel_affine(w, scale, zp_int + 300, 0, 0, 255)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.fake_quantize_per_channel_affine(w, scale, zero_point, -2, 0, 255)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.fake_quantize_per_channel_affine(w, scale.requires_grad_(), zero_point, 0, 0, 255)
except RuntimeError as e:
    print(type(e).__name__, e)
scale.requires_grad_(False)

# QAT: fake-quantized table inside the bag, gradient flows straight through
weight = emb.weight
wq = torch.fake_quantize_per_channel_affine(weight, scale, zero_point, 0, 0, 255)
inputs = torch.tensor([0, 2, 4, 1, 3, 5, 5])
offsets = torch.tensor([0, 3])
out = F.embedding_bag(inputs, wq, offsets, mode="sum")
print("bags\n", out)
out.pow(2).sum().backward()
print("grad rows touched", (weight.grad.abs().sum(dim=1) > 0).tolist())
print("grad_fn", wq.grad_fn.name())
