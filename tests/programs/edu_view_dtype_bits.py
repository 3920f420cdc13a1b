# Bit-level puzzle: reinterpret memory with tensor.view(dtype) (float32 <-> int32 bits,
# int64 -> int32 halves), checking sizes/strides of the reinterpreted views.
import torch

f = torch.tensor([1.0, -2.0, 0.5, 0.0])
bits = f.view(torch.int32)
print(bits, bits.dtype, bits.shape)
sign = (bits >> 31) & 1
exponent = ((bits >> 23) & 0xFF) - 127
print("sign", sign, "exponent", exponent)
print(bits.view(torch.float32))
i64 = torch.arange(3)
halves = i64.view(torch.int32)
print(halves, halves.shape, halves.stride())
m = torch.arange(6, dtype=torch.int16).reshape(2, 3)
print(m.view(torch.uint8).shape if False else m.view(torch.int16).shape)
w = torch.arange(4, dtype=torch.int32).reshape(2, 2).view(torch.int16)
print(w, w.shape, w.stride())
try:
    torch.arange(3, dtype=torch.int32).view(torch.int64)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.arange(6, dtype=torch.int32).reshape(2, 3).t().view(torch.int16)
except RuntimeError as e:
    print("RuntimeError", e)
