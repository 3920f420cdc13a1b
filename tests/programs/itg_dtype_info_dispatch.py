# Library-style dtype helpers: saturating casts driven by torch.iinfo/finfo, picking a
# "safe" mask value per dtype, dispatching on dtype properties (is_floating_point,
# is_signed, itemsize, to_complex/to_real), comparing finfo objects, and validating
# casts with torch.can_cast before doing in-place work.
import torch


def dtype_range(dtype):
    info = torch.finfo(dtype) if dtype.is_floating_point else torch.iinfo(dtype)
    return info.min, info.max


def saturate_cast(x, dtype):
    """Cast with clamping instead of wraparound (like OpenCV's saturate_cast)."""
    if dtype == torch.bool:
        return x != 0
    lo, hi = dtype_range(dtype)
    if x.is_floating_point() and not dtype.is_floating_point:
        x = torch.round(x)
    if not x.is_floating_point() and dtype.is_floating_point:
        return x.to(dtype)
    if x.is_floating_point() or torch.promote_types(x.dtype, dtype) != dtype:
        x = x.clamp(lo, hi)
    return x.to(dtype)


def mask_value(dtype):
    """Large negative value for masking logits, per dtype (as attention code does)."""
    if dtype.is_floating_point:
        return torch.finfo(dtype).min
    return torch.iinfo(dtype).min


vals = torch.tensor([-1000.6, -129.5, -0.5, 0.5, 127.5, 254.5, 70000.0])
for dt in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.float16, torch.bool]:
    print(f"{str(dt):>13}", "wrap:", vals.to(dt).tolist() if dt != torch.uint8 else "(skip)",
          "| sat:", saturate_cast(vals, dt).tolist())
ints = torch.tensor([-300, -1, 0, 255, 40000])
print("int64 -> uint8 sat", saturate_cast(ints, torch.uint8), "wrap", ints.to(torch.uint8))
print("int64 -> int16 sat", saturate_cast(ints, torch.int16))

print("ranges:")
for dt in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
    info = torch.iinfo(dt)
    print(f"  {info.dtype:>6} bits={info.bits:>2} min={info.min} max={info.max} signed={dt.is_signed} itemsize={dt.itemsize}")
for dt in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    fi = torch.finfo(dt)
    print(f"  {fi.dtype:>8} bits={fi.bits} eps={fi.eps:.3e} tiny={fi.tiny:.3e} max={fi.max:.3e} resolution={fi.resolution}")
print(torch.iinfo(torch.int8))
print(torch.finfo(torch.float16))

scores = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.25, 4.0]])
mask = torch.tensor([[True, True, False], [False, True, True]])
for dt in [torch.float32, torch.float16, torch.float64]:
    s = scores.to(dt).masked_fill(~mask, mask_value(dt))
    print(dt, torch.softmax(s.float(), dim=-1).round(decimals=4))
print("int mask value", mask_value(torch.int32), torch.zeros(2, dtype=torch.int32).masked_fill(torch.tensor([True, False]), mask_value(torch.int32)))

# finfo objects compare by dtype: used to check "same precision" in mixed-precision code
print("finfo equal:", torch.finfo(torch.float32) == torch.finfo(torch.float32),
      torch.finfo(torch.float32) == torch.finfo(torch.float16),
      torch.finfo(torch.float32) == torch.finfo(torch.complex64),
      torch.finfo() == torch.finfo(torch.get_default_dtype()),
      torch.iinfo(torch.int8) == torch.iinfo(torch.int8),
      torch.iinfo(torch.int8) != torch.iinfo(torch.uint8))
eps = {torch.float16: 1e-3, torch.float32: 1e-6, torch.float64: 1e-12}
for dt in eps:
    print(dt, "tolerance", eps[dt], "eps ratio", f"{eps[dt] / torch.finfo(dt).eps:.2f}")

# complex <-> real dtype mapping
for dt in [torch.float32, torch.float64, torch.complex64, torch.complex128, torch.float16]:
    print(dt, "->", dt.to_complex(), dt.to_real(), dt.is_complex)
for dt in [torch.int32, torch.uint8, torch.bool]:
    print(dt, "to_real", dt.to_real())
    try:
        dt.to_complex()
    except RuntimeError as e:
        print("  ", type(e).__name__, e)

# validate in-place ops with can_cast
acc = torch.zeros(3, dtype=torch.int32)
for upd in [torch.tensor([1, 2, 3]), torch.tensor([0.5, 1.5, 2.5]), torch.tensor([True, False, True]),
            torch.tensor([1, 2, 3], dtype=torch.uint8)]:
    rt = torch.result_type(acc, upd)
    ok = torch.can_cast(rt, acc.dtype)
    print(f"update {upd.dtype}: result {rt}, can cast back: {ok}")
    if ok:
        acc += upd
    else:
        try:
            acc += upd
        except RuntimeError as e:
            print("  ", e)
print("acc", acc)
