# Printing the type-promotion tables from the docs ("Type promotion" note): result_type for
# every pair of dtypes as tensors, as 0-dim tensors, and with Python scalars; promote_types,
# can_cast, and what actually comes out of +, *, /, //, ** and comparisons.
import torch

dts = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
       torch.float16, torch.float32, torch.float64, torch.complex64]
short = {torch.bool: "b1", torch.uint8: "u1", torch.int8: "i1", torch.int16: "i2",
         torch.int32: "i4", torch.int64: "i8", torch.float16: "f2", torch.float32: "f4",
         torch.float64: "f8", torch.complex64: "c8", torch.complex128: "c16", torch.complex32: "c4"}


def row(label, cells):
    print(f"{label:>4} " + " ".join(f"{c:>4}" for c in cells))


print("promote_types")
row("", [short[d] for d in dts])
for a in dts:
    row(short[a], [short[torch.promote_types(a, b)] for b in dts])

print("result_type(1-d tensor, 0-d tensor)")
row("", [short[d] for d in dts])
for a in dts:
    ta = torch.ones(2, dtype=a)
    row(short[a], [short[torch.result_type(ta, torch.ones((), dtype=b))] for b in dts])

print("result_type with Python scalars")
scalars = [True, 3, -3, 2.5, 1j]
row("", ["T", "3", "-3", "2.5", "1j"])
for a in dts:
    ta = torch.ones(2, dtype=a)
    row(short[a], [short[torch.result_type(ta, s)] for s in scalars])
print("scalar first:", torch.result_type(2, torch.ones(2, dtype=torch.int8)),
      torch.result_type(2.0, torch.tensor(1)), torch.result_type(torch.tensor(1), torch.tensor(1.0)))
print("two scalars:", torch.result_type(torch.tensor(2), 3.0))

print("can_cast")
row("", [short[d] for d in dts])
for a in dts:
    row(short[a], ["y" if torch.can_cast(a, b) else "." for b in dts])

print("operators on int32 x:")
x = torch.tensor([7, -7], dtype=torch.int32)
for name, fn in [("x+1", lambda: x + 1), ("x+1.", lambda: x + 1.0), ("x/2", lambda: x / 2),
                 ("x//2", lambda: x // 2), ("x//2.", lambda: x // 2.0), ("x%3", lambda: x % 3),
                 ("x%2.5", lambda: x % 2.5), ("x**2", lambda: x ** 2), ("x**.5", lambda: x ** 0.5),
                 ("2**x", lambda: 2 ** x.abs()), ("x*True", lambda: x * True),
                 ("x>1.5", lambda: x > 1.5), ("x+i8", lambda: x + torch.tensor([1], dtype=torch.int8)),
                 ("x+i64_0d", lambda: x + torch.tensor(1)), ("x+f64_0d", lambda: x + torch.tensor(1.0, dtype=torch.float64)),
                 ("x*u8", lambda: x * torch.ones(2, dtype=torch.uint8)),
                 ("u8*i8", lambda: torch.ones(2, dtype=torch.uint8) * torch.ones(2, dtype=torch.int8)),
                 ("b+b", lambda: torch.tensor([True]) + torch.tensor([True])),
                 ("b*2.", lambda: torch.tensor([True, False]) * 2.0),
                 ("f2+f4_0d", lambda: torch.ones(2, dtype=torch.float16) + torch.tensor(1.0)),
                 ("f2_0d+i8", lambda: torch.tensor(1.0, dtype=torch.float16) + torch.ones(2, dtype=torch.int64)),
                 ("abs", lambda: x.abs()), ("neg", lambda: -x), ("sqrt", lambda: x.sqrt()),
                 ("sig", lambda: torch.sigmoid(x)), ("mean", lambda: x.float().mean()),
                 ("sum", lambda: x.sum()), ("prod", lambda: x.prod()), ("cumsum", lambda: x.cumsum(0)),
                 ("max", lambda: x.max()), ("where", lambda: torch.where(x > 0, x, 0.5)),
                 ("clamp.5", lambda: x.clamp(min=0.5)), ("clamp_t", lambda: x.clamp(min=torch.tensor(0.5))),
                 ("maximum", lambda: torch.maximum(x, torch.tensor([1.5, 1.5]))),
                 ("floor", lambda: torch.floor(x)), ("round", lambda: torch.round(x)),
                 ("sign", lambda: torch.sign(x)), ("fpow", lambda: torch.float_power(x, 2))]:
    r = fn()
    print(f"  {name:>9}: {str(r.dtype):>14}  {r.tolist()}")
