"""ATen's C++ tensor dump embedded in error messages (``legacy_print``): type names, column
blocks of wide matrices, complex input, and meshgrid's check order."""
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same
from tapegrad.ops.legacy_print import legacy_print


def _meshgrid_error(lib, tensor, *others):
    with pytest.raises(RuntimeError) as info:
        lib.meshgrid(tensor, *others, indexing="ij")
    return str(info.value)


@pytest.mark.parametrize("dtype, name", [
    ("float32", "[ torch.FloatTensor{1,2} ]"), ("uint8", "[ torch.ByteTensor{1,2} ]"),
    ("int32", "[ torch.IntTensor{1,2} ]"), ("bool", "[ CPUBoolType{1,2} ]"),
    ("complex64", "[ CPUComplexFloatType{1,2} ]"), ("complex128", "[ CPUComplexDoubleType{1,2} ]"),
])
def test_type_names_follow_aten_tostring(dtype, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert legacy_print(np.ones((1, 2), dtype=dtype)).endswith(name)


def test_complex_prints_real_part_with_warning():
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        text = legacy_print(np.array([[1.5 + 2j, -3 - 1j]]))
    assert text == " 1.5000 -3.0000\n[ CPUComplexFloatType{1,2} ]".replace("Float", "Double")


def test_wide_matrix_splits_into_column_blocks():
    text = legacy_print(np.full((1, 12), 0.5, dtype=np.float32))
    # width 7 plus a separator: 10 columns fit in 80 characters
    assert text == ("Columns 1 to 10" + " " + "  ".join(["0.5000"] * 10) + "\n\n"
                    "Columns 11 to 12 0.5000  0.5000\n[ torch.FloatTensor{1,12} ]")


def test_zero_dim_is_one_value_and_empty_braces():
    assert legacy_print(np.array(2.5, dtype=np.float64)) == "2.5\n[ torch.DoubleTensor{} ]"


def test_meshgrid_checks_dtypes_before_dimensions():
    message = _meshgrid_error(tapegrad, tapegrad.ones(2, 2), tapegrad.arange(3))
    assert message == "meshgrid expects all tensors to have the same dtype"


CASES = [
    lambda lib: lib.ones(2, 2),
    lambda lib: lib.arange(24.).view(2, 12) / 7,
    lambda lib: lib.arange(48.).view(2, 2, 12) / 3,
    lambda lib: lib.arange(60.).view(2, 30) / 7e5,
    lambda lib: lib.arange(30).view(2, 15) * 10 ** 11,
    lambda lib: lib.tensor([[True, False]]),
    lambda lib: lib.tensor([[1 + 2j, -3.5 - 1j]]),
    lambda lib: lib.tensor([[-1000.5, 1.5], [float("nan"), 2.0]]),
    lambda lib: lib.arange(8).view(2, 2, 2),
]


@pytest.mark.parametrize("make", CASES)
def test_meshgrid_message_same_as_torch(make):
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: lib.meshgrid(make(lib), indexing="ij"), torch)


def test_mixed_dtypes_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: lib.meshgrid(lib.ones(2, 2), lib.arange(3), indexing="ij"), torch)


@pytest.mark.parametrize("dtype", ["bool", "complex64", "float16", "int32"])
def test_expand_error_names_type_as_aten(dtype):
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: lib.zeros(2, 3, dtype=getattr(lib, dtype)).expand(3), torch)
