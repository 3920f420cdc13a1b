# Integer overflow wrapping and type promotion of integer tensors with Python floats/bools, the way a
# user discovers them while writing a quantized kernel: uint8 underflow, int8 saturation by hand,
# reductions promoting to int64, result_type / promote_types / can_cast, in-place casting errors.
import torch

u = torch.tensor([0, 1, 250, 255], dtype=torch.uint8)
print("u - 1         ", u - 1)
print("u + 10        ", u + 10)
print("u * 2         ", u * 2)
print("u.sum()       ", u.sum(), u.sum().dtype)
print("u.sum(u8)     ", u.sum(dtype=torch.uint8))
print("u.cumsum      ", u.cumsum(0), u.cumsum(0).dtype)
print("u.prod        ", u[1:].prod(), u.prod(dtype=torch.uint8))
print("u.mean err?")
try:
    print(u.mean())
except RuntimeError as e:
    print(type(e).__name__, e)
print("u.float().mean", u.float().mean())

i8 = torch.tensor([-128, -100, 100, 127], dtype=torch.int8)
print("i8 + 100      ", i8 + 100)
print("-i8           ", -i8)
print("i8.abs()      ", i8.abs())
print("saturating add", (i8.to(torch.int16) + 100).clamp(-128, 127).to(torch.int8))
print("i8 * i8       ", i8 * i8)
print("i32 overflow  ", torch.tensor([2**31 - 1], dtype=torch.int32) + 1)
print("i64 mul wrap  ", torch.tensor([2**62], dtype=torch.int64) * 4)

# promotion with python scalars
x = torch.arange(4, dtype=torch.int16)
print("int16 + 1     ", (x + 1).dtype)
print("int16 + 1.5   ", x + 1.5, (x + 1.5).dtype)
print("int16 * True  ", x * True, (x * True).dtype)
print("int16 + 70000 ", (x + 70000))
print("uint8 + int8  ", (u + i8).dtype, u + i8)
print("uint8 + bool  ", (u + torch.tensor([True, False, True, True])).dtype)
print("bool + bool   ", torch.tensor([True, False]) + torch.tensor([True, True]))
print("bool * 3      ", torch.tensor([True, False]) * 3)
print("bool sum      ", torch.tensor([True, True, False]).sum())
print("int / int     ", torch.tensor([3, 4]) / torch.tensor([2, 2]))
print("int8 + float16", (i8 + torch.ones(4, dtype=torch.float16)).dtype)
print("int64 + f32 0d", (torch.tensor([1, 2]) + torch.tensor(1.5)).dtype)
print("f16 + f32 0d  ", (torch.ones(2, dtype=torch.float16) + torch.tensor(1.5)).dtype)
print("i8 + i64 0d   ", (i8 + torch.tensor(1)).dtype)
print("result_type   ", torch.result_type(i8, 1.0), torch.result_type(u, i8), torch.result_type(u, 5))
print("promote_types ", torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.int32, torch.float16))
print("can_cast      ", torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.int64, torch.uint8))

# in-place: result must be castable
y = torch.arange(3)
y += 2
print("y += 2        ", y)
try:
    y += 0.5
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    y.mul_(torch.tensor([1.5, 1.5, 1.5]))
except RuntimeError as e:
    print(type(e).__name__, e)
z = torch.zeros(3)
z += torch.tensor([1, 2, 3])
print("float += int  ", z)
b = torch.tensor([True, False, True])
try:
    b += 1
except RuntimeError as e:
    print(type(e).__name__, e)
b |= torch.tensor([False, True, False])
print("bool |=       ", b)

# float -> int conversion truncates toward zero; to uint8 from negative is wrap-like (avoid), clamp first
f = torch.tensor([-2.7, -0.5, 0.5, 2.7, 300.0])
print("to int32      ", f.to(torch.int32))
print("clamp->uint8  ", f.clamp(0, 255).to(torch.uint8))
print("round->int8   ", f.clamp(-128, 127).round().to(torch.int8))
print("long(), int() ", f.long(), f[:4].int().dtype)
print("iinfo         ", torch.iinfo(torch.int8), torch.iinfo(torch.uint8).max, torch.iinfo(torch.int32).min)
print("finfo eps     ", torch.finfo(torch.float16).eps, torch.finfo(torch.bfloat16).max)
