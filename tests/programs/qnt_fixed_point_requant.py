# Integer-only requantization as in TFLite/gemmlowp: express a float rescale factor as an int32
# multiplier and a right shift (frexp), SaturatingRoundingDoublingHighMul with int64 intermediates,
# rounding divide-by-power-of-two with negative values, and a check against float rescaling.
import math
import torch


def quantize_multiplier(real):
    mantissa, exponent = math.frexp(real)
    q = int(round(mantissa * (1 << 31)))
    if q == (1 << 31):
        q //= 2
        exponent += 1
    return q, exponent


def saturating_rounding_doubling_high_mul(a, b):
    a64 = a.to(torch.int64)
    ab = a64 * b
    nudge = torch.where(ab >= 0, torch.tensor(1 << 30), torch.tensor(1 - (1 << 30)))
    res = torch.div(ab + nudge, 1 << 31, rounding_mode="trunc")
    overflow = (a == -(2 ** 31)) & (b == -(2 ** 31))
    return torch.where(overflow, torch.tensor(2 ** 31 - 1), res).to(torch.int32)


def rounding_divide_by_pot(x, exponent):
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0).to(x.dtype)
    return (x >> exponent) + (remainder > threshold).to(x.dtype)


def requantize(acc, real_multiplier, out_zero_point):
    m, e = quantize_multiplier(real_multiplier)
    shift = -e
    y = saturating_rounding_doubling_high_mul(acc, m)
    y = rounding_divide_by_pot(y, shift)
    return torch.clamp(y + out_zero_point, -128, 127).to(torch.int8), m, shift


acc = torch.tensor([-70000, -12345, -257, -1, 0, 1, 255, 4097, 33333, 2 ** 20], dtype=torch.int32)
for real in [0.0037, 0.000912, 0.25]:
    q, m, shift = requantize(acc, real, out_zero_point=-3)
    ref = torch.clamp(torch.round(acc.double() * real) - 3, -128, 127).to(torch.int8)
    print(f"real={real} multiplier={m} shift={shift}")
    print("  int path  ", q)
    print("  float path", ref)
    print("  max diff  ", (q.int() - ref.int()).abs().max().item())

x = torch.tensor([-9, -8, -7, -5, -4, -3, -1, 0, 3, 4, 5, 12], dtype=torch.int32)
print("x            ", x)
print("x >> 2       ", x >> 2)
print("rdivpot 2    ", rounding_divide_by_pot(x, 2))
print("trunc div 4  ", torch.div(x, 4, rounding_mode="trunc"))
print("floor div 4  ", torch.div(x, 4, rounding_mode="floor"))
print("round(x/4)   ", torch.round(x / 4).int())
print("x & 3        ", x & 3, "x % 4", x % 4, "fmod", torch.fmod(x, 4))
mi = torch.tensor([-(2 ** 31)], dtype=torch.int32)
print("srdhm overflow", saturating_rounding_doubling_high_mul(mi, -(2 ** 31)))
print("frexp        ", torch.frexp(torch.tensor([0.0037, 0.25, 3.0, -5.5])))
print("ldexp        ", torch.ldexp(torch.tensor([0.5, 0.75]), torch.tensor([3, -2])))
