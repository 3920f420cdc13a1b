# Boolean logic and bit twiddling: logical_and/or/xor/not on bool, int and float tensors,
# &, |, ^, ~ on bool and int tensors, shifts, and combining masks -- result dtypes and reprs.
import torch

m1 = torch.tensor([True, True, False, False])
m2 = torch.tensor([True, False, True, False])
print(torch.logical_and(m1, m2), m1.logical_or(m2), torch.logical_xor(m1, m2), torch.logical_not(m1))
print(m1 & m2, m1 | m2, m1 ^ m2, ~m1, (m1 & m2).dtype)
nums = torch.tensor([0, 1, 2, -3])
fl = torch.tensor([0.0, 0.5, -1.0, float("nan")])
print(torch.logical_and(nums, fl), torch.logical_or(nums, torch.tensor(0)), torch.logical_not(nums), torch.logical_not(fl), torch.logical_xor(nums, m1))
print(torch.logical_not(nums, out=torch.empty(4, dtype=torch.int16)), torch.logical_and(nums > 0, fl > 0))
a = torch.tensor([12, 10, 7, -1])
b = torch.tensor([10, 6, 1, 3])
print(a & b, a | b, a ^ b, ~a, a | 1, 1 | a)
print(torch.bitwise_and(a, b), torch.bitwise_or(a, 1), torch.bitwise_xor(a, b), torch.bitwise_not(a))
print(a << 2, a >> 1, torch.bitwise_left_shift(a, b), torch.tensor([256]) >> torch.tensor([4]), torch.bitwise_right_shift(a, 1))
u = torch.tensor([1, 2, 255], dtype=torch.uint8)
print(u << 1, ~u, u & 3, (u >> 1).dtype, torch.tensor([1, 2], dtype=torch.int32) | torch.tensor([4, 4], dtype=torch.int64))
print(a & True, m1 & 1, (m1 | torch.tensor([0, 0, 0, 1])).dtype, m1 ^ True, m1 & torch.tensor(False))
print(torch.bitwise_and(m1, m2), torch.bitwise_not(m2), torch.bitwise_xor(m1, torch.tensor(True)))
x = torch.arange(-3., 4.)
mask = (x > -2) & (x < 2) | (x == 3)
print(mask, x[mask], x[~mask], mask.sum(), mask.float().mean(), mask.long(), mask.int().dtype)
keep = torch.ones(7, dtype=torch.bool)
alias = keep
keep &= x != 0
keep |= x == -3
keep ^= torch.tensor([False] * 6 + [True])
print(keep, x[keep], alias is keep, alias)
flags = torch.zeros(3, dtype=torch.int64)
flags |= torch.tensor([1, 2, 4])
flags <<= 1
flags ^= 2
print(flags, flags.bitwise_and_(torch.tensor([8, 8, 8])), flags)
print(torch.any(m1 & m2), torch.all(m1 | m2), (m1 != m2), m1.eq(m2), m1 + m2, m1.sum(), (m1 * m2), m1.int() - m2.int())
print(torch.where(m1 ^ m2, torch.tensor(1.), torch.tensor(-1.)), m1.to(torch.uint8) * 200, m1.float().dtype)

try:
    print(~torch.tensor([1.5]))
except (TypeError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1.5]) & torch.tensor([1.0]))
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
try:
    print(torch.tensor([1.5]) << 1)
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
try:
    print(m1 - m2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    print(-m1)
except RuntimeError as e:
    print(type(e).__name__, e)
