# OpInfo-style test inputs: torch.testing.make_tensor over a list of dtypes, checking only the
# properties a test relies on (shape, dtype, bounds, requires_grad, contiguity) and its errors.
import torch
from torch.testing import make_tensor

DTYPES = [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32,
          torch.int8, torch.uint8, torch.bool, torch.complex64]


def test_shape_and_dtype(dtype):
    t = make_tensor((3, 4), dtype=dtype, device="cpu")
    t2 = make_tensor(2, 5, dtype=dtype, device="cpu")
    print(f"{str(dtype):15s} {tuple(t.shape)} {t.dtype} {tuple(t2.shape)} "
          f"contig={t.is_contiguous()} rg={t.requires_grad}")


def test_bounds(dtype):
    if dtype is torch.bool or dtype.is_complex:
        return
    low, high = (2, 5) if not dtype.is_floating_point else (-0.5, 0.5)
    t = make_tensor(200, dtype=dtype, device="cpu", low=low, high=high)
    inside = bool(((t >= low) & (t <= high)).all())
    print(f"{str(dtype):15s} bounds [{low}, {high}] respected: {inside}")


def test_exclude_zero(dtype):
    if dtype is torch.bool:
        return
    t = make_tensor(500, dtype=dtype, device="cpu", low=-2, high=2, exclude_zero=True)
    print(f"{str(dtype):15s} zeros after exclude_zero: {int((t == 0).sum())}")


for dtype in DTYPES:
    test_shape_and_dtype(dtype)
for dtype in DTYPES:
    test_bounds(dtype)
for dtype in DTYPES:
    test_exclude_zero(dtype)

g = make_tensor((2, 3), dtype=torch.float64, device="cpu", requires_grad=True)
print("requires_grad:", g.requires_grad, g.is_leaf, g.grad_fn)
nc = make_tensor((4, 6), dtype=torch.float32, device="cpu", noncontiguous=True)
print("noncontiguous:", nc.is_contiguous(), tuple(nc.shape))
scalar = make_tensor((), dtype=torch.float32, device="cpu")
print("scalar:", scalar.dim(), tuple(scalar.shape))
empty = make_tensor((0, 3), dtype=torch.int64, device="cpu")
print("empty:", empty.numel(), empty.dtype)
cl = make_tensor((2, 3, 4, 5), dtype=torch.float32, device="cpu", memory_format=torch.channels_last)
print("channels_last:", cl.is_contiguous(memory_format=torch.channels_last), cl.stride())
same = make_tensor(5, dtype=torch.float32, device="cpu", low=1.5, high=1.5)
print("low == high:", same.tolist())


def expect_error(name, **kwargs):
    try:
        make_tensor((2,), device="cpu", **kwargs)
        print(name, "-> no error")
    except Exception as e:
        print(name, "->", type(e).__name__, e)


expect_error("int requires_grad", dtype=torch.int64, requires_grad=True)
expect_error("low > high", dtype=torch.float32, low=3.0, high=1.0)
expect_error("nan low", dtype=torch.float32, low=float("nan"))
expect_error("int8 out of range", dtype=torch.int8, low=-1000, high=1000)
expect_error("uint8 negative", dtype=torch.uint8, low=-5, high=3)
expect_error("bool low", dtype=torch.bool, low=0, high=1)
expect_error("noncontig + channels_last", dtype=torch.float32, noncontiguous=True,
             memory_format=torch.channels_last)
