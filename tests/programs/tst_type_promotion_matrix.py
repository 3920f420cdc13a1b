# Parametrized type-promotion tests (like test_type_promotion.py): result dtypes of binary ops
# over a dtype matrix, scalars vs 0-dim vs n-dim operands, in-place casting errors, can_cast.
import itertools
import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.float32, torch.float64, torch.complex64, torch.complex128]
SHORT = {d: str(d).replace("torch.", "")[:6] for d in DTYPES}


def make(dtype, shape=(2,)):
    return torch.ones(shape, dtype=dtype)


print("promote_types matrix")
print(" " * 7 + " ".join(f"{SHORT[d]:>6s}" for d in DTYPES))
for a in DTYPES:
    row = [SHORT[torch.promote_types(a, b)] for b in DTYPES]
    print(f"{SHORT[a]:>6s} " + " ".join(f"{r:>6s}" for r in row))

mismatches = 0
for a, b in itertools.product(DTYPES, repeat=2):
    expected = torch.promote_types(a, b)
    got = (make(a) + make(b)).dtype if not (a == b == torch.bool) else torch.bool
    if got != expected:
        mismatches += 1
print("add follows promote_types except:", mismatches)

print("0-dim tensors and python scalars do not upcast the category winner:")
cases = [(make(torch.int8), torch.tensor(1000)), (make(torch.float16), torch.tensor(1.0, dtype=torch.float64)),
         (make(torch.int32), 2.5), (make(torch.uint8), -1), (make(torch.bool), 1), (make(torch.float32), 1j),
         (torch.tensor(1, dtype=torch.int16), torch.tensor(1.0, dtype=torch.float16)),
         (make(torch.int64), torch.tensor(1.5, dtype=torch.float64))]
for x, y in cases:
    other = y.dtype if isinstance(y, torch.Tensor) else type(y).__name__
    print(f"  {x.dtype} {tuple(x.shape)} + {other}: {(x + y).dtype}  result_type={torch.result_type(x, y)}")

print("division and comparison results:")
for d in [torch.int32, torch.uint8, torch.bool, torch.float16]:
    t = make(d)
    print(f"  {d}: / -> {(t / t).dtype}, // -> {(t // t).dtype if d != torch.bool else 'n/a'}, "
          f"== -> {(t == t).dtype}, sum -> {t.sum().dtype}, mean ok: {d.is_floating_point}")

print("in-place casting rules:")
for a, b in [(torch.int32, torch.float32), (torch.float32, torch.float64), (torch.float32, torch.complex64),
             (torch.uint8, torch.int8), (torch.bool, torch.int32), (torch.int64, torch.bool)]:
    x = make(a)
    try:
        x.add_(make(b))
        print(f"  {a}.add_({b}) ok -> {x.dtype}")
    except RuntimeError as e:
        print(f"  {a}.add_({b}) RuntimeError: {e}")

print("can_cast:")
for a, b in [(torch.float64, torch.float32), (torch.float32, torch.int32), (torch.int32, torch.float16),
             (torch.complex64, torch.float64), (torch.bool, torch.uint8), (torch.int64, torch.bool)]:
    print(f"  {a} -> {b}: {torch.can_cast(a, b)}")

print("mean on integer tensor:")
try:
    make(torch.int64).mean()
except RuntimeError as e:
    print("  RuntimeError:", e)
print("default dtype switch:")
torch.set_default_dtype(torch.float64)
print("  ", torch.tensor([1.5]).dtype, (make(torch.int32) * 0.5).dtype, torch.arange(3.0).dtype,
      torch.tensor(1j).dtype)
torch.set_default_dtype(torch.float32)
print("  ", torch.tensor([1.5]).dtype, (make(torch.int32) * 0.5).dtype, torch.tensor(1j).dtype)
