# arange / range / linspace / logspace argument types as users write them: ints vs floats vs
# 0-d tensors as bounds, the inferred dtype, float steps and lengths, integer dtypes with
# fractional steps, negative steps, and the errors for bad step signs and zero steps.
import torch

for args in [(5,), (1, 5), (0, 1, 0.25), (0.0, 3), (-3, 3, 2), (5, 0, -1), (0, 1, 0.1),
             (1, 2, 0.3), (0, 10, 3), (-1.5, 1.5)]:
    t = torch.arange(*args)
    print(f"arange{args}", t.dtype, t.numel(), t)

print("tensor bounds", torch.arange(torch.tensor(3)), torch.arange(torch.tensor(1.0), 4))
print("0-d int64 end", torch.arange(torch.tensor(4, dtype=torch.int32)).dtype)
print("len from .size", torch.arange(0, 0.9, 0.3).shape, torch.arange(0, 1.0, 1 / 3).shape)
print("dtype=int step 1.5", torch.arange(0, 6, 1.5, dtype=torch.int64))
print("dtype=int8", torch.arange(-2, 3, dtype=torch.int8))
print("dtype=uint8", torch.arange(250, 256, dtype=torch.uint8))
print("dtype=float16", torch.arange(0, 1, 0.125, dtype=torch.float16))
print("dtype=float64", torch.arange(3, dtype=torch.float64))
print("dtype=bool?")
try:
    print(torch.arange(3, dtype=torch.bool))
except Exception as e:
    print(type(e).__name__, e)
print("range", torch.range(0, 2) if hasattr(torch, "range") else None)

for args in [(0, 5, -1), (5, 0, 1), (0, 5, 0)]:
    try:
        print(torch.arange(*args))
    except Exception as e:
        print(f"arange{args}", type(e).__name__, e)
print("empty ok", torch.arange(3, 3), torch.arange(3, 3).dtype)
try:
    torch.arange(0, float("inf"))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.arange(0, float("nan"))
except Exception as e:
    print(type(e).__name__, e)

# linspace / logspace dtypes
print("linspace", torch.linspace(0, 1, 5).dtype, torch.linspace(0, 10, 5, dtype=torch.int64))
print("linspace int neg", torch.linspace(-5, 5, 4, dtype=torch.int32))
print("linspace steps=1", torch.linspace(2, 9, 1), "steps=0", torch.linspace(2, 9, 0))
print("linspace f64", torch.linspace(0, 1, 3, dtype=torch.float64))
print("linspace tensor ends", torch.linspace(torch.tensor(0.0), torch.tensor(1.0), 3))
print("logspace", torch.logspace(0, 3, 4), torch.logspace(0, 3, 4, base=2))
print("logspace int", torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(0, 4, 5, base=2, dtype=torch.int32))
try:
    torch.linspace(0, 1, -1)
except Exception as e:
    print(type(e).__name__, e)

# typical uses: positions, bins, timesteps
pos = torch.arange(6).float() / 6
print("pos", pos)
freq = 1.0 / (10000 ** (torch.arange(0, 8, 2) / 8))
print("freq", freq, freq.dtype)
print("int // arange", torch.arange(10) // 3, torch.arange(10) / 3)
t = torch.arange(1, 1001)
print("sum 1..1000", t.sum(), (t * t).sum(), t.prod().item() == 0)
print("arange neg float", torch.arange(1.0, 0.0, -0.3))
