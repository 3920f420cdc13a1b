"""Differences found by differential fuzzing of printing against PyTorch (fzp): ``str``/``repr``/
``format`` of tensors of every dtype and shape under every print option, grad_fn and tangent
suffixes, Parameters, ``torch.Size``/dtype/device/finfo/iinfo reprs, the ``torch.return_types``
results, and ATen's C++ tensor text embedded in error messages (a NaN's sign, the scale of a
scaled block), plus ``torch._tensor_str``'s print-option helpers."""
import copy
import pickle

import numpy as np
import pytest

import tapegrad
from tapegrad.ops.legacy_print import legacy_print

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


@pytest.fixture(autouse=True)
def default_printoptions():
    yield
    tapegrad.set_printoptions(profile="default")
    if torch is not None:
        torch.set_printoptions(profile="default")


def _meshgrid_message(lib, array):
    """The text of meshgrid's refusal of a 2-d tensor: ATen prints the tensor into it."""
    with pytest.raises(RuntimeError) as error:
        lib.meshgrid(lib.from_numpy(array.copy()), indexing="ij")
    return str(error.value)


# -- ATen's C++ printing: the sign of NaN, the scale of a scaled block ----------------------------

def test_aten_text_keeps_the_sign_of_nan():
    values = np.array([[np.nan, -np.nan, 1.5]])
    assert legacy_print(values) == "    nan    -nan  1.5000\n[ torch.DoubleTensor{1,3} ]"


@pytest.mark.parametrize("first, scale", [(1.5e11 + 0.5, "100000000000"),
                                          (3.5e9 + 0.5, "1000000000"), (5e-4, "0.0001"),
                                          (2.5e-7, "1e-07")])
def test_aten_text_prints_the_scale_in_full(first, scale):
    text = legacy_print(np.array([[first, first * 1.5]]))
    assert text.startswith(f"{scale} *\n")


SCALED_BLOCKS = {
    "nan_signs": np.array([[np.nan, -np.nan], [1.5, -2.25]], dtype=np.float32),
    "complex_nan_signs": np.array([[complex(-np.nan, 1), 2.5]], dtype=np.complex64),
    "large_scale": np.array([[-1.49e11, 1.82e11], [2.2e10, 3.5e11]]),
    "batched_scale": np.array([[[-6.8e8, 1.3e8]], [[1.7e9, 8.1e8]]]),
    "small_scale": np.array([[1.5e-7, 2.5e-7, -3.25e-7]]),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(SCALED_BLOCKS))
def test_aten_text_as_torch(name):
    array = SCALED_BLOCKS[name]
    with np.errstate(invalid="ignore"):
        assert _meshgrid_message(tapegrad, array) == _meshgrid_message(torch, array)


# -- torch._tensor_str: PRINT_OPTS, get_printoptions, printoptions --------------------------------

def test_tensor_str_module_reads_and_scopes_the_print_options():
    options = tapegrad._tensor_str.get_printoptions()
    assert options == {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
                       "sci_mode": None}
    with tapegrad._tensor_str.printoptions(precision=2, sci_mode=True):
        assert repr(tapegrad.tensor([1.23456])) == "tensor([1.23e+00])"
        assert tapegrad._tensor_str.PRINT_OPTS.precision == 2
    assert repr(tapegrad.tensor([1.23456])) == "tensor([1.2346])"
    assert tapegrad._tensor_str.get_printoptions() == options


def test_print_options_are_restored_when_the_block_raises():
    with pytest.raises(ValueError):
        with tapegrad._tensor_str.printoptions(linewidth=10):
            raise ValueError
    assert tapegrad._tensor_str.PRINT_OPTS.linewidth == 80


@needs_torch
def test_tensor_str_as_torch():
    for lib in (tapegrad, torch):
        lib.set_printoptions(precision=3, threshold=5)
    assert repr(tapegrad._tensor_str.PRINT_OPTS) == repr(torch._tensor_str.PRINT_OPTS)
    assert tapegrad._tensor_str.get_printoptions() == torch._tensor_str.get_printoptions()


# -- torch.return_types: the constructor's checks, read-only fields, the out= twins --------------

CONSTRUCTIONS = {
    "nothing": lambda R: R.max(),
    "not_a_sequence": lambda R: R.max(1),
    "three_arguments": lambda R: R.max(1, 2, 3),
    "second_not_dict": lambda R: R.svd([1, 2, 3], 5),
    "neither": lambda R: R.svd(1, 2),
    "wrong_length": lambda R: R.topk([1, 2, 3]),
    "sequence_and_dict": lambda R: R.svd([1, 2, 3], {}),
    "a_string": lambda R: R.max("ab"),
}


def _constructed(lib, name):
    try:
        return repr(CONSTRUCTIONS[name](lib.return_types))
    except TypeError as error:
        return f"TypeError: {error}"


def test_return_types_are_built_from_one_sequence():
    assert _constructed(tapegrad, "nothing") == (
        "TypeError: structseq() missing required argument 'sequence' (pos 1)")
    assert _constructed(tapegrad, "not_a_sequence") == "TypeError: constructor requires a sequence"
    assert _constructed(tapegrad, "three_arguments") == (
        "TypeError: structseq() takes at most 2 arguments (3 given)")
    assert _constructed(tapegrad, "second_not_dict") == (
        "TypeError: torch.return_types.svd() takes a dict as second arg, if any")
    assert tapegrad.return_types.svd([1, 2, 3], {}) == (1, 2, 3)


@needs_torch
@pytest.mark.parametrize("name", sorted(CONSTRUCTIONS))
def test_return_type_construction_as_torch(name):
    assert _constructed(tapegrad, name) == _constructed(torch, name)


ATTRIBUTE_USES = {
    "missing": lambda r: r.foo,
    "namedtuple_api": lambda r: r._fields,
    "assign_field": lambda r: setattr(r, "values", 3),
    "assign_new": lambda r: setattr(r, "foo", 3),
    "delete_field": lambda r: delattr(r, "indices"),
    "no_dict": lambda r: r.__dict__,
}


def _attribute_error(lib, use):
    result = lib.max(lib.tensor([[1.0, 2.0]]), 1)
    with pytest.raises(AttributeError) as error:
        use(result)
    return str(error.value)


@pytest.mark.parametrize("name", sorted(ATTRIBUTE_USES))
def test_return_types_name_themselves_in_attribute_errors(name):
    message = _attribute_error(tapegrad, ATTRIBUTE_USES[name])
    assert message == "readonly attribute" or message.startswith("'torch.return_types.max' ")


@needs_torch
@pytest.mark.parametrize("name", sorted(ATTRIBUTE_USES))
def test_return_type_attribute_errors_as_torch(name):
    use = ATTRIBUTE_USES[name]
    assert _attribute_error(tapegrad, use) == _attribute_error(torch, use)


def test_return_types_still_copy_pickle_and_compare():
    result = tapegrad.return_types.max([1, 2])
    for twin in (copy.copy(result), copy.deepcopy(result), pickle.loads(pickle.dumps(result))):
        assert type(twin) is type(result) and twin == (1, 2)
    assert hasattr(result, "values") and not hasattr(result, "_asdict")


def test_every_return_type_has_its_out_twin_made_up_front():
    R = tapegrad.return_types
    assert R.linalg_qr_out.__match_args__ == ("Q", "R")
    assert R.svd_out.__match_args__ == ("U", "S", "V")
    assert not hasattr(R, "histogramdd_out") and not hasattr(R, "max_out_out")


@needs_torch
def test_return_type_names_as_torch():
    def names(module):
        return {name for name in dir(module) if not name.startswith("_")
                and isinstance(getattr(module, name), type)
                and issubclass(getattr(module, name), tuple)}
    assert names(tapegrad.return_types) <= names(torch.return_types)
    assert {name + "_out" for name in names(tapegrad.return_types) if not name.endswith("_out")
            and name != "histogramdd"} <= names(tapegrad.return_types)
