# Checking numeric limits and memory before choosing a dtype: print torch.finfo/iinfo, dtype
# properties, element sizes, a tensor's (typed) storage, and what casts do to printed values.
import warnings

import torch

warnings.simplefilter("ignore")  # TypedStorage deprecation
for dt in (torch.float16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(fi)
    print(f"{str(dt):14s} bits={fi.bits} eps={fi.eps:.3e} max={fi.max:.3e} tiny={fi.tiny:.3e}")
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    ii = torch.iinfo(dt)
    print(ii, ii.bits, ii.min, ii.max, ii.dtype)
print(torch.finfo().dtype, torch.finfo(torch.complex64).dtype)

for dt in (torch.bool, torch.uint8, torch.int32, torch.float16, torch.float64, torch.complex64):
    t = torch.zeros(3, dtype=dt)
    print(dt, t.element_size(), t.nbytes, dt.is_floating_point, dt.is_complex, dt.is_signed, dt.itemsize)

s = torch.tensor([1.5, -2.0, 3.25]).storage()
print(s)
print(type(s).__name__, s.dtype, s.size(), len(s), s.tolist())
print(torch.arange(4, dtype=torch.int16).storage())
print(torch.tensor([True, False]).storage())
print(torch.tensor([], dtype=torch.float64).storage())
v = torch.arange(6.).view(2, 3)[:, 1]
print(v, v.storage_offset(), v.stride(), v.is_contiguous())
print(v.storage().size(), v.contiguous().storage().size())

big = torch.tensor([300.7, -1.6, 70000.0, 0.1])
print(big.to(torch.int32), big.to(torch.float16), big.to(torch.int16))
print(big.to(torch.uint8) if False else big.clamp(0, 255).to(torch.uint8))
print(torch.tensor([0.1, 0.2], dtype=torch.float64).float().double())
print(torch.tensor([1e-8, 1.0]).half(), torch.tensor([2049.0, 4097.0]).half())
print(torch.tensor([3, -3, 7]) // 2, torch.tensor([3, -3, 7]) / 2, torch.tensor([3, -3, 7]) % 2)
print(torch.tensor([1, 2], dtype=torch.int8) * 100)
print(torch.tensor([250], dtype=torch.uint8) + 10)
print(torch.promote_types(torch.uint8, torch.int8), torch.result_type(torch.tensor([1], dtype=torch.int32), 2.5))
print(torch.tensor([1.5]) + torch.tensor([2], dtype=torch.int64), (torch.tensor([1]) + 0.5).dtype)
print(torch.tensor(2, dtype=torch.int16) * torch.tensor([1.5], dtype=torch.float16))
