# Library test suite idiom: test_* functions that use torch.testing.assert_close on passing and
# failing cases, printing the caught AssertionError (mismatch counts, greatest differences, tolerances).
import torch
from torch.testing import assert_close


def expect_failure(name, fn):
    try:
        fn()
    except AssertionError as e:
        print(f"[{name}] AssertionError:\n{e}\n")
    else:
        print(f"[{name}] unexpectedly passed")


def test_close_within_default_tolerance():
    a = torch.linspace(0, 1, 5)
    assert_close(a, a + 1e-7)
    assert_close(a.double(), a.double() + 1e-9)
    print("default tolerances ok")


def test_mismatch_float32():
    actual = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    expected = actual.clone()
    expected[0, 1] = 2.5
    expected[1, 2] = 6.001
    expect_failure("float32", lambda: assert_close(actual, expected))


def test_mismatch_float64_custom_tol():
    actual = torch.arange(10, dtype=torch.float64) / 7
    expected = actual + torch.linspace(0, 1e-3, 10, dtype=torch.float64)
    expect_failure("f64 rtol/atol", lambda: assert_close(actual, expected, rtol=1e-5, atol=1e-6))
    assert_close(actual, expected, rtol=0.0, atol=2e-3)
    print("passes with atol=2e-3")


def test_integer_exact():
    a = torch.tensor([1, 2, 3, 4], dtype=torch.int32)
    b = torch.tensor([1, 2, 7, 4], dtype=torch.int32)
    expect_failure("int32", lambda: assert_close(a, b))
    expect_failure("int32 tol", lambda: assert_close(a, b, rtol=0.1, atol=1.0))


def test_bool_tensors():
    a = torch.tensor([True, False, True])
    b = torch.tensor([True, True, True])
    expect_failure("bool", lambda: assert_close(a, b))


def test_scalar_tensors():
    expect_failure("0-dim", lambda: assert_close(torch.tensor(1.0), torch.tensor(1.1)))
    expect_failure("python float", lambda: assert_close(1.0, 1.5))
    expect_failure("python int", lambda: assert_close(3, 4))


def test_msg_string_and_callable():
    a = torch.zeros(3)
    b = torch.tensor([0.0, 0.5, 0.0])
    expect_failure("msg str", lambda: assert_close(a, b, msg="outputs differ for layer fc1"))
    expect_failure("msg callable",
                   lambda: assert_close(a, b, msg=lambda m: f"fc1 check failed!\n{m}"))


def test_nan_handling():
    a = torch.tensor([1.0, float("nan"), 3.0])
    expect_failure("nan", lambda: assert_close(a, a.clone()))
    assert_close(a, a.clone(), equal_nan=True)
    print("equal_nan=True ok")
    expect_failure("nan vs num", lambda: assert_close(a, torch.tensor([1.0, 2.0, 3.0]), equal_nan=True))


def test_inf_handling():
    a = torch.tensor([float("inf"), -float("inf"), 1.0])
    assert_close(a, a.clone())
    print("matching infs ok")
    expect_failure("inf sign", lambda: assert_close(a, torch.tensor([float("inf"), float("inf"), 1.0])))


def test_large_tensor_single_mismatch():
    a = torch.arange(1000, dtype=torch.float32).reshape(10, 10, 10)
    b = a.clone()
    b[7, 3, 9] += 1.0
    expect_failure("3d", lambda: assert_close(a, b))


for name, fn in list(globals().items()):
    if name.startswith("test_") and callable(fn):
        print(f"== {name}")
        fn()
