# Integer division and remainder semantics users trip over when computing bucket ids / positions with
# negative offsets: //, %, torch.div rounding modes, fmod vs remainder, in-place variants, dtypes.
import torch

a = torch.tensor([-7, -6, -1, 0, 1, 6, 7])
b = torch.tensor([2, -2, 3, -3, 2, -4, -3])

print("a // 2        ", a // 2)
print("a % 3         ", a % 3)
print("a % -3        ", a % -3)
print("a // b        ", a // b)
print("a % b         ", a % b)
print("trunc         ", torch.div(a, b, rounding_mode="trunc"))
print("floor         ", torch.div(a, b, rounding_mode="floor"))
print("true div      ", torch.div(a, b))
print("a / 2 dtype   ", (a / 2).dtype)
print("fmod          ", torch.fmod(a, b))
print("remainder     ", torch.remainder(a, b))
print("fmod scalar   ", torch.fmod(a, 3), a.fmod(-3))
print("remainder sc  ", torch.remainder(a, -3), a.remainder(3))
print("scalar % tens ", torch.remainder(5, b))
print("int // float  ", a // 2.5, (a // 2.5).dtype)
print("int % float   ", a % 2.5)
print("float fmod    ", torch.fmod(a.float(), 2.5))
print("float floor_div", torch.floor_divide(a.float(), -2))

# reverse operators with python ints
print("10 // b       ", 10 // b)
print("-10 % b       ", -10 % b)
print("2 ** small    ", 2 ** torch.tensor([0, 1, 5]))

# in-place keeps integer dtype for floor/trunc, errors for true division
c = a.clone()
c //= 2
print("c //= 2       ", c)
c = a.clone()
c.div_(2, rounding_mode="trunc")
print("div_ trunc    ", c, c.dtype)
c = a.clone()
c %= 4
print("c %= 4        ", c)
try:
    c = a.clone()
    c /= 2
except RuntimeError as e:
    print(type(e).__name__, e)

# small int dtypes
i8 = torch.tensor([-128, -7, 7, 127], dtype=torch.int8)
print("int8 // 2     ", i8 // 2, (i8 // 2).dtype)
print("int8 % 5      ", i8 % 5)
print("int8 // -1    ", torch.div(i8, -1, rounding_mode="trunc"))
u8 = torch.tensor([0, 7, 200, 255], dtype=torch.uint8)
print("uint8 // 3    ", u8 // 3, "uint8 % 7", u8 % 7)

# integer division by zero
try:
    print(a // torch.zeros_like(a))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    print(torch.remainder(a, 0))
except RuntimeError as e:
    print(type(e).__name__, e)
print("float fmod by 0", torch.fmod(torch.tensor([1.0, -1.0]), 0.0))
print("float // 0     ", torch.tensor([1.0, -1.0, 0.0]) // 0)

# typical use: wrap negative positions into a ring buffer of size 5
pos = torch.arange(-6, 6)
print("ring idx      ", pos % 5)
print("row, col      ", pos // 4, torch.remainder(pos, 4))
print("divmod check  ", torch.equal((pos // 4) * 4 + pos % 4, pos))
