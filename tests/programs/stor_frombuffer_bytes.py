# Binary-parsing tutorial: torch.frombuffer over bytearray / bytes, offsets and counts,
# dtype reinterpretation with view(dtype), and writes shared with the buffer.
import struct
import warnings
import torch

buf = bytearray(struct.pack("<6f", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
t = torch.frombuffer(buf, dtype=torch.float32)
print(t, t.dtype, t.shape, t.is_contiguous())
t[0] = 10.0
print(struct.unpack("<f", bytes(buf[:4]))[0])
t2 = torch.frombuffer(buf, dtype=torch.float32, count=2, offset=8)
print(t2)
i8 = torch.frombuffer(buf, dtype=torch.uint8)
print(i8.shape, i8[:4].tolist())
i16 = torch.frombuffer(bytearray(b"\x01\x00\x02\x00\xff\xff"), dtype=torch.int16)
print(i16)
print(t.view(torch.int32)[:2], t.view(torch.uint8).shape, t.view(torch.float16).shape)
print(t.view(2, 3).view(torch.int16).shape)
try:
    t.view(2, 3).t().view(torch.int16)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.frombuffer(buf, dtype=torch.float32, count=10)
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.frombuffer(buf, dtype=torch.float64, offset=4)
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.frombuffer(bytearray(), dtype=torch.float32)
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.frombuffer(buf, dtype=torch.float32, offset=24)
except ValueError as e:
    print(type(e).__name__, e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    ro = torch.frombuffer(b"\x00\x00\x80\x3f", dtype=torch.float32)
    print(ro, len(w) > 0)
arr = bytearray(range(8))
u = torch.frombuffer(arr, dtype=torch.uint8).view(2, 4)
print(u.t().contiguous().flatten().tolist(), u.stride())
b64 = torch.frombuffer(arr, dtype=torch.int64)
print(b64, b64.element_size(), b64.nbytes)
print(torch.frombuffer(memoryview(arr)[2:6], dtype=torch.uint8))
g = torch.frombuffer(bytearray(8), dtype=torch.float32, requires_grad=True)
print(g.requires_grad, g.is_leaf)
for bad in (lambda: torch.frombuffer(memoryview(bytearray(8))[::2], dtype=torch.uint8),
            lambda: torch.frombuffer(bytearray(4), dtype=torch.int32, requires_grad=True),
            lambda: torch.frombuffer(bytearray(4), dtype="float32")):
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
