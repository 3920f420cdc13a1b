# Unix permission bits and flag words stored in integer tensors (as in file-index / dataset
# metadata tools): octal masks with &, |, ^, ~, shifts to extract fields, bools vs ints,
# shift widths at and beyond the type size, and errors for float operands.
import torch

modes = torch.tensor([0o755, 0o644, 0o600, 0o777, 0o4755, 0o000], dtype=torch.int32)
print("modes", modes)
owner = (modes >> 6) & 0o7
group = (modes >> 3) & 7
other = modes & 7
print("owner", owner, "group", group, "other", other)
print("exec any", ((modes & 0o111) != 0))
print("setuid", (modes & 0o4000).bool())
print("chmod g+w", modes | 0o020)
print("chmod o-r", modes & ~0o004)
print("toggle", modes ^ 0o777)
print("~modes", ~modes, (~modes).dtype)

def render(m):
    chars = "rwxrwxrwx"
    bits = [(m >> (8 - i)) & 1 for i in range(9)]
    return "".join(c if b.item() else "-" for c, b in zip(chars, bits))
print([render(m) for m in modes])

# bit flags in small types
flags = torch.tensor([0b0001, 0b0101, 0b1000, 0b1111], dtype=torch.uint8)
print("uint8 ~", ~flags)
print("uint8 << 4", flags << 4, "<< 5", flags << 5)
print("uint8 >> 1", flags >> 1)
i8 = torch.tensor([-128, -1, 1, 127], dtype=torch.int8)
print("int8 >> 1", i8 >> 1, "<< 1", i8 << 1)
print("int8 >> 7", i8 >> 7)
print("int8 ~", ~i8)
print("shift tensor", torch.tensor([1, 1, 1]) << torch.tensor([0, 10, 62]))
print("shift 63", torch.tensor([1]) << 63)
print("neg >> 3", torch.tensor([-17, -16, -1, 17]) >> 3)
print("neg floor-div", torch.tensor([-17, -16, -1, 17]) // 8)
print("bitwise_left_shift", torch.bitwise_left_shift(torch.tensor([3, 5]), 2))
print("bitwise_right_shift", torch.bitwise_right_shift(torch.tensor([-64, 64], dtype=torch.int16), torch.tensor([2, 3], dtype=torch.int16)))
print("python int lhs", 1 << torch.tensor([0, 3, 7]), 256 >> torch.tensor([1, 4]))

# bool operands
m1 = torch.tensor([True, True, False, False])
m2 = torch.tensor([True, False, True, False])
print("bool &|^", m1 & m2, m1 | m2, m1 ^ m2, ~m1)
print("bool & int", (m1 & torch.tensor([1, 3, 5, 7])), (m1 | 2).dtype)
print("bool & True", m1 & True, (m1 ^ 1).dtype)
print("int8 & int32", (i8 & torch.tensor([1, 1, 1, 1], dtype=torch.int32)).dtype,
      (flags | i8).dtype, (flags & torch.tensor(3)).dtype)
print("bitwise_and scalar", torch.bitwise_and(modes, 0o700), torch.bitwise_xor(flags, 255))
print("bitwise_not bool", torch.bitwise_not(m1))

for bad in [lambda: torch.tensor([1.0]) & 1, lambda: modes | 1.5, lambda: modes << 1.0,
            lambda: ~torch.tensor([1.5]), lambda: torch.tensor([1.0]) >> 1]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)

# popcount of each mode via shifts
count = torch.zeros_like(modes)
for b in range(12):
    count += (modes >> b) & 1
print("popcount", count)
a = flags.clone()
a <<= 2
print("in-place <<=", a)
a ^= 0xFF
print("in-place ^=", a)
a &= torch.tensor(0x0F)
print("in-place &=", a, a.dtype)
