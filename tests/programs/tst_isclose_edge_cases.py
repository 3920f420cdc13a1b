# Numerical-comparison unit tests: torch.isclose / allclose / equal on NaN, inf, -0.0, mixed
# dtypes, broadcasting and tolerance arguments, as a library's test_numerics.py would check.
import torch

nan, inf = float("nan"), float("inf")


def show(label, value):
    print(f"{label:32s}", value)


a = torch.tensor([0.0, -0.0, 1.0, nan, inf, -inf, 1e-8])
b = torch.tensor([-0.0, 0.0, 1.0 + 1e-6, nan, inf, inf, 0.0])
show("isclose default", torch.isclose(a, b))
show("isclose equal_nan", torch.isclose(a, b, equal_nan=True))
show("isclose atol=0 rtol=0", torch.isclose(a, b, rtol=0, atol=0))
show("allclose", torch.allclose(a, b))
show("allclose first 3", torch.allclose(a[:3], b[:3]))
show("equal -0.0 vs 0.0", torch.equal(torch.tensor([-0.0]), torch.tensor([0.0])))
show("equal nan", torch.equal(torch.tensor([nan]), torch.tensor([nan])))
show("signbit", torch.signbit(a))
show("-0.0 == 0.0", (torch.tensor(-0.0) == torch.tensor(0.0)).item())
show("1/-0.0", 1 / torch.tensor(-0.0))

# broadcasting and scalars
m = torch.linspace(0, 1, 6).reshape(2, 3)
show("isclose broadcast row", torch.isclose(m, m[0]))
show("isclose other tensor 0-d", torch.isclose(m, torch.tensor(0.4)))

# mixed dtypes
for fn in (torch.isclose, torch.allclose):
    try:
        show(f"{fn.__name__} f32 vs f64", fn(torch.tensor([0.1]), torch.tensor([0.1], dtype=torch.float64)))
    except RuntimeError as e:
        show(f"{fn.__name__} f32 vs f64", f"RuntimeError: {e}")
show("equal f32 vs f64", torch.equal(torch.tensor([0.5]), torch.tensor([0.5], dtype=torch.float64)))
show("equal int vs float", torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])))
show("equal bool vs int", torch.equal(torch.tensor([True]), torch.tensor([1])))
show("isclose ints", torch.isclose(torch.tensor([1, 5, 10]), torch.tensor([2, 5, 12]), rtol=0, atol=1))
show("isclose ints rtol", torch.isclose(torch.tensor([100, 5]), torch.tensor([105, 7]), rtol=0.05, atol=0))
show("isclose bool", torch.isclose(torch.tensor([True, False]), torch.tensor([True, True])))
for x, y in [(torch.tensor([1.0]), torch.tensor([1])),
             (torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float16))]:
    try:
        show(f"isclose {x.dtype} vs {y.dtype}", torch.isclose(x, y))
    except RuntimeError as e:
        show(f"isclose {x.dtype} vs {y.dtype}", f"RuntimeError: {e}")

# tolerance argument checks
for kwargs in [dict(rtol=-1.0), dict(atol=-1e-3)]:
    try:
        torch.isclose(a, b, **kwargs)
    except RuntimeError as e:
        show(f"isclose {kwargs}", f"RuntimeError: {e}")

# complex numbers
c1 = torch.tensor([1 + 1j, complex(nan, 0), complex(inf, 0)])
c2 = torch.tensor([1 + 1.0000001j, complex(nan, 0), complex(inf, 0)])
show("isclose complex", torch.isclose(c1, c2))
show("isclose complex equal_nan", torch.isclose(c1, c2, equal_nan=True))

# float16 resolution
h = torch.tensor([1.0, 1.0009765625, 2048.0], dtype=torch.float16)
show("fp16 + 1 ulp", torch.isclose(h, h + torch.tensor([0.0009765625, 0.0, 1.0], dtype=torch.float16)))
show("empty allclose", torch.allclose(torch.empty(0), torch.empty(0)))
try:
    torch.allclose(torch.ones(2), torch.ones(3))
except RuntimeError as e:
    show("allclose shape", f"RuntimeError: {e}")
