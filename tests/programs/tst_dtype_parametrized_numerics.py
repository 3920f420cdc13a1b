# A parametrized numerics test (like @pytest.mark.parametrize("dtype", ...)) run as a script:
# per-dtype tolerances from torch.finfo, integer limits from torch.iinfo, overflow/underflow checks.
import math
import torch
from torch.testing import assert_close

FLOAT_DTYPES = [torch.float16, torch.float32, torch.float64]
INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]


def parametrize(values):
    def deco(fn):
        def run():
            for v in values:
                try:
                    fn(v)
                    status = "PASSED"
                except AssertionError as e:
                    status = "FAILED: " + str(e).splitlines()[0]
                print(f"{fn.__name__}[{v}] {status}")
        return run
    return deco


@parametrize(FLOAT_DTYPES)
def test_finfo_fields(dtype):
    fi = torch.finfo(dtype)
    print(f"  bits={fi.bits} eps={fi.eps} max={fi.max} min={fi.min} tiny={fi.tiny} "
          f"resolution={fi.resolution} dtype={fi.dtype}")
    assert fi.eps == 2.0 ** -(torch.finfo(dtype).bits - {16: 6, 32: 9, 64: 12}[fi.bits] + 1) or True
    one = torch.ones((), dtype=dtype)
    assert (one + fi.eps) != one, "eps must be representable"
    assert (one + fi.eps / 4) == one, "eps/4 must round away"


@parametrize(FLOAT_DTYPES)
def test_overflow_to_inf(dtype):
    fi = torch.finfo(dtype)
    big = torch.tensor(fi.max, dtype=dtype)
    assert torch.isinf(big * 2).item()
    assert not torch.isinf(big).item()
    assert (torch.tensor(fi.tiny, dtype=dtype) / 2).item() > 0 or dtype == torch.float16
    print(f"  max*2={big * 2} tiny={torch.tensor(fi.tiny, dtype=dtype)}")


@parametrize(FLOAT_DTYPES)
def test_sum_tolerance(dtype):
    x = torch.linspace(0, 1, 101, dtype=dtype)
    expected = torch.tensor(50.5, dtype=dtype)
    rtol = 10 * torch.finfo(dtype).eps
    assert_close(x.sum(), expected, rtol=rtol, atol=0.0)


@parametrize(FLOAT_DTYPES)
def test_exp_log_roundtrip_default_tol(dtype):
    x = torch.linspace(0.5, 3.0, 11, dtype=dtype)
    assert_close(torch.log(torch.exp(x)), x)


@parametrize(INT_DTYPES)
def test_iinfo_and_wraparound(dtype):
    ii = torch.iinfo(dtype)
    print(f"  bits={ii.bits} min={ii.min} max={ii.max} dtype={ii.dtype}")
    t = torch.tensor([ii.max], dtype=dtype)
    assert (t + 1).item() == ii.min, f"{dtype} should wrap around"
    assert t.dtype == dtype


@parametrize(INT_DTYPES)
def test_int_division_dtype(dtype):
    a = torch.tensor([7, 8], dtype=dtype)
    assert (a / 2).dtype == torch.float32
    assert (a // 2).dtype == dtype
    assert_close(a // 2, torch.tensor([3, 4], dtype=dtype))


@parametrize([torch.float32, torch.float64, torch.int32])
def test_default_tolerance_boundary(dtype):
    if dtype.is_floating_point:
        fi = torch.finfo(dtype)
        x = torch.ones(4, dtype=dtype)
        assert_close(x, x + fi.eps)
        assert_close(x, x + 1e-3, msg=f"1e-3 too far for {dtype}")
    else:
        assert_close(torch.tensor([1, 2], dtype=dtype), torch.tensor([1, 3], dtype=dtype))


for name, fn in list(globals().items()):
    if name.startswith("test_"):
        fn()

print(torch.finfo(), torch.finfo().eps == torch.finfo(torch.float32).eps)
print(torch.iinfo(torch.int16))
print(torch.finfo(torch.float16))
for bad in (torch.int32, torch.bool):
    try:
        torch.finfo(bad)
    except TypeError as e:
        print("finfo", bad, "->", type(e).__name__, e)
try:
    torch.iinfo(torch.float32)
except TypeError as e:
    print("iinfo float32 ->", type(e).__name__, e)
print(math.isclose(torch.finfo(torch.float32).eps, 2 ** -23))
