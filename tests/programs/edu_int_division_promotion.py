# Quiz on integer division and type promotion: //, %, torch.div rounding modes, fmod vs
# remainder with negatives, true division of ints, result_type/promote_types/can_cast.
import torch

a = torch.tensor([7, -7, 7, -7, 0])
b = torch.tensor([2, 2, -2, -2, 3])
print("//", a // b)
print("%", a % b)
print("div", torch.div(a, b))
print("trunc", torch.div(a, b, rounding_mode="trunc"))
print("floor", torch.div(a, b, rounding_mode="floor"))
print("fmod", torch.fmod(a, b), "remainder", torch.remainder(a, b))
print("scalar", a // 2, a % 3, -7 // torch.tensor(2), 7 % torch.tensor(-3))
print("float", torch.tensor([7.5, -7.5]) // 2, torch.tensor([7.5, -7.5]) % 2, torch.fmod(torch.tensor([7.5, -7.5]), 2))
print("float div modes", torch.div(torch.tensor([-3.5, 3.5]), 2, rounding_mode="trunc"), torch.div(torch.tensor([-3.5, 3.5]), 2, rounding_mode="floor"))
print("uint8", torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8))
print("int8 overflow", torch.tensor([127], dtype=torch.int8) + 1)
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]) % 0
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1.0, -1.0, 0.0]) / 0, torch.tensor([1.0]) // 0, torch.tensor([5.0]) % 0)
try:
    torch.div(a, b, rounding_mode="round")
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.floor_divide(a, b), torch.true_divide(a, b).dtype)

# promotion
i32 = torch.tensor([1, 2], dtype=torch.int32)
f16 = torch.tensor([1.0, 2.0], dtype=torch.float16)
print((i32 + 1).dtype, (i32 + 1.5).dtype, (i32 + torch.tensor(1.5)).dtype, (i32 * True).dtype)
print((i32 + torch.tensor([1], dtype=torch.int64)).dtype, (i32 + torch.tensor(1, dtype=torch.int64)).dtype)
print((f16 + torch.tensor(1.0, dtype=torch.float64)).dtype, (f16 + torch.tensor([1.0], dtype=torch.float64)).dtype)
print((torch.tensor([True]) + torch.tensor([True])).dtype, (torch.tensor([True]) + 1).dtype, torch.tensor([True]) + True)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print((torch.tensor([1], dtype=torch.uint8) - 2), (i32 / i32).dtype, (i32 // i32).dtype)
print((torch.tensor([3]) / 2), (torch.tensor([3]) ** 2).dtype, (torch.tensor([3]) ** 0.5).dtype, (torch.tensor([3]) ** -1.0))
print(torch.result_type(i32, 1.0), torch.result_type(torch.tensor(1), torch.tensor([1], dtype=torch.int16)))
print(torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.int16, torch.float16))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.int64, torch.bool))
print(torch.get_default_dtype(), torch.tensor([1, 2.0]).dtype, torch.tensor([1, True]).dtype)
print(torch.arange(3).float().dtype, torch.arange(0, 1, 0.25).dtype, torch.arange(3.0).long())
try:
    torch.tensor([3]) ** -1
except RuntimeError as e:
    print("RuntimeError", e)
try:
    i32 += 1.5
except RuntimeError as e:
    print("RuntimeError", e)
x = torch.tensor([1.7, -1.7, 2.5, -2.5])
print(x.int(), x.long(), x.round(), x.trunc(), x.floor(), x.ceil(), x.to(torch.uint8) if False else x.abs().to(torch.uint8))
print(torch.tensor([2 ** 31], dtype=torch.int64).to(torch.int32) if False else torch.iinfo(torch.int32).max, torch.finfo(torch.float16).eps)
m = torch.tensor([10, 20, 30])
m //= 7
print(m, m.dtype)
m2 = torch.tensor([10, 20, 30])
try:
    m2 /= 7
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor(-7).div(2, rounding_mode="floor").item(), -7 // 2, int(-7 / 2))
print(torch.tensor([-8, 8]).bitwise_right_shift(1), torch.tensor([-8, 8]) >> 1, torch.tensor([1]) << 3)
print(torch.tensor([5, -5]).abs() % torch.tensor([3]), torch.remainder(torch.tensor([-1.0]), 3), torch.remainder(-1, torch.tensor([3])))
