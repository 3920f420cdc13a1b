# Fixed-point DSP the way embedded people prototype it in PyTorch: Q15 samples in int16,
# products accumulated in int32, rounding right-shifts, saturation with iinfo bounds,
# and the overflow you get when you forget to widen.
import math
import torch

Q = 15
I16 = torch.iinfo(torch.int16)
I32 = torch.iinfo(torch.int32)
print("int16 range", I16.min, I16.max, "bits", I16.bits, "| int32", I32.min, I32.max)


def to_q15(x):
    """float in [-1, 1) -> int16 Q15 with rounding and saturation."""
    return torch.clamp(torch.round(x * (1 << Q)), I16.min, I16.max).to(torch.int16)


def from_q15(q):
    return q.to(torch.float32) / (1 << Q)


def q15_mul(a, b):
    """(a*b + 2^14) >> 15 in int32, saturated back to int16."""
    prod = a.to(torch.int32) * b.to(torch.int32)
    return torch.clamp((prod + (1 << (Q - 1))) >> Q, I16.min, I16.max).to(torch.int16)


t = torch.arange(16, dtype=torch.float32)
signal = 0.9 * torch.sin(2 * math.pi * t / 16)
q = to_q15(signal)
print("q15 signal", q)
print("dtype", q.dtype, "max abs err", (from_q15(q) - signal).abs().max().item() < 2 ** -15)
print("saturation:", to_q15(torch.tensor([1.0, -1.0, 1.5, -1.5, 0.99999])))

half = to_q15(torch.tensor(0.5))
print("half in q15", half, half.dtype, half.dim())
print("q15_mul(q, 0.5)", q15_mul(q, half))
naive = q * half                      # int16 * int16 stays int16 and wraps
print("naive int16 product", naive[:6], naive.dtype)
print("naive shifted", (naive >> Q)[:6])

# FIR filter: int32 accumulator, taps in Q15
taps_f = torch.tensor([0.25, 0.5, 0.25])
taps = to_q15(taps_f)
print("taps", taps)
x = to_q15(0.5 * torch.cos(2 * math.pi * t / 4) + 0.3)
pad = torch.cat([torch.zeros(2, dtype=torch.int16), x])
acc = torch.zeros(16, dtype=torch.int32)
for k in range(3):
    acc += pad[2 - k: 2 - k + 16].to(torch.int32) * taps[k]
print("acc dtype", acc.dtype, acc[:6])
y = torch.clamp((acc + (1 << 14)) >> 15, I16.min, I16.max).to(torch.int16)
ref = torch.nn.functional.conv1d(from_q15(pad).view(1, 1, -1), from_q15(taps).flip(0).view(1, 1, -1)).flatten()
print("fir q15", y)
print("fir err (LSB)", ((from_q15(y) - ref).abs() * (1 << 15)).round().max().item())

# accumulate in int16 by mistake: wraps around
acc16 = torch.zeros(16, dtype=torch.int16)
for k in range(3):
    acc16 += pad[2 - k: 2 - k + 16] * taps[k]
print("int16 accumulator (wrong)", acc16[:6])

# rounding shifts: >> floors toward -inf, division truncates
v = torch.tensor([-5, -4, -3, 3, 4, 5], dtype=torch.int32)
print(">>1", v >> 1, "| //2", v // 2, "| trunc", torch.div(v, 2, rounding_mode="trunc"))
print("round-half-up >>1", (v + 1) >> 1, "| symmetric", torch.sign(v) * ((v.abs() + 1) >> 1))
print("<<", v << 28, (v.to(torch.int64) << 28))

# saturating add of two int16 buffers
a = torch.tensor([30000, -30000, 100, 32767], dtype=torch.int16)
b = torch.tensor([10000, -10000, -200, 1], dtype=torch.int16)
print("wrapping add", a + b)
print("saturating add", torch.clamp(a.int() + b.int(), I16.min, I16.max).short())
print("mixed int16 + int32 0-dim", (a + torch.tensor(1, dtype=torch.int32)).dtype,
      "| + int32 1-dim", (a + torch.tensor([1], dtype=torch.int32)).dtype)
print("q15 energy", (q.to(torch.int64) ** 2).sum(), (q.int() ** 2).sum().dtype)
print("rms (float)", f"{from_q15(q).pow(2).mean().sqrt().item():.5f}")
