# Unit-test style numeric comparisons: torch.isclose / allclose with rtol, atol and equal_nan,
# integer and bool inputs, inf handling, mixed dtypes, and torch.equal versus allclose.
import torch

a = torch.tensor([1.0, 1.0001, 1.01, float("inf"), float("-inf"), float("nan"), 0.0, 1e-9])
b = torch.tensor([1.0, 1.0, 1.0, float("inf"), float("inf"), float("nan"), 1e-9, 0.0])

print("default       ", torch.isclose(a, b))
print("equal_nan     ", torch.isclose(a, b, equal_nan=True))
print("rtol=1e-2     ", torch.isclose(a, b, rtol=1e-2))
print("atol=0 rtol=0 ", torch.isclose(a, b, rtol=0.0, atol=0.0))
print("atol=1e-8     ", torch.isclose(a, b, rtol=0.0, atol=1e-8))
print("allclose", torch.allclose(a[:3], b[:3]), torch.allclose(a[:3], b[:3], rtol=1e-1))
print("allclose nan", torch.allclose(a[5:6], b[5:6]), torch.allclose(a[5:6], b[5:6], equal_nan=True))

# integer inputs: isclose on ints compares with tolerances too
i = torch.tensor([10, 20, 30, -5])
j = torch.tensor([10, 21, 33, -5])
print("int default", torch.isclose(i, j))
print("int rtol .1", torch.isclose(i, j, rtol=0.1, atol=0))
print("int atol 1 ", torch.isclose(i, j, rtol=0, atol=1))
print("int8", torch.isclose(i.to(torch.int8), j.to(torch.int8), atol=2))
print("uint8", torch.isclose(torch.tensor([250, 3], dtype=torch.uint8),
                             torch.tensor([3, 250], dtype=torch.uint8), atol=5))

bt = torch.tensor([True, False, True])
bf = torch.tensor([True, True, False])
print("bool", torch.isclose(bt, bf))

# mixed dtypes
for x, y in [(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64)),
             (torch.tensor([1]), torch.tensor([1.0])),
             (torch.tensor([1.0], dtype=torch.float16), torch.tensor([1.0]))]:
    try:
        print(x.dtype, y.dtype, torch.isclose(x, y))
    except Exception as e:
        print(x.dtype, y.dtype, type(e).__name__, e)

try:
    torch.isclose(a, b, rtol=-1.0)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.isclose(a, b, atol=-1.0)
except Exception as e:
    print(type(e).__name__, e)

# broadcasting and shapes
m = torch.arange(6.0).reshape(2, 3)
print(torch.isclose(m, torch.tensor([0.0, 1.0 + 1e-6, 2.5])))
print(torch.isclose(m, torch.tensor(2.0)))

# equal vs allclose
f32 = torch.tensor([0.1, 0.2, 0.3])
f64 = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
print("equal", torch.equal(f32, f32.clone()), torch.equal(f32, f32 + 1e-7))
print("equal mixed", torch.equal(f32, f64))
print("equal shapes", torch.equal(f32, f32[None]))
print("sum check", (f32.sum() == 0.6).item(), torch.isclose(f32.sum(), torch.tensor(0.6)).item())
print("0.1+0.2", torch.tensor(0.1, dtype=torch.float64) + 0.2 == 0.3,
      torch.isclose(torch.tensor(0.1, dtype=torch.float64) + 0.2, torch.tensor(0.3, dtype=torch.float64)))

half = torch.tensor([1.0, 1.0005, 1.001, 65504.0], dtype=torch.float16)
print(half, torch.isclose(half, torch.ones(4, dtype=torch.float16), rtol=1e-3))
print(torch.isclose(half, torch.ones(4, dtype=torch.float16), rtol=1e-3).dtype)
print(a.isclose(b, equal_nan=True).sum().item())
