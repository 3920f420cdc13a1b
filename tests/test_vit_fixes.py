"""Differences found by the vision-transformer programs (vit_*): shape arguments given by keyword
(``torch.reshape(x, shape=...)``, ``x.permute(dims=...)``, ``torch.swapaxes(x, axis0=...)``) and
refused in PyTorch's words when missing, and ``unfold`` / ``fold`` refusing integer tensors as
ATen's im2col / col2im kernels do; ``roll``, ``repeat``, ``as_strided``, ``Hardtanh`` and
``Sequential.insert`` refusing bad arguments in PyTorch's words."""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _grid(lib):
    return lib.arange(24.0).reshape(2, 3, 4)


# -- shape arguments by keyword ----------------------------------------------------------------

KEYWORD_CASES = {
    "reshape": lambda lib: lib.reshape(_grid(lib), shape=(4, 6)),
    "reshape list": lambda lib: lib.reshape(_grid(lib), shape=[-1]),
    "permute": lambda lib: lib.permute(_grid(lib), dims=(2, 0, 1)),
    "permute method": lambda lib: _grid(lib).permute(dims=[1, 2, 0]),
    "swapaxes": lambda lib: lib.swapaxes(_grid(lib), axis0=0, axis1=2),
    "swapaxes method": lambda lib: _grid(lib).swapaxes(axis0=-1, axis1=1),
    "swapdims": lambda lib: lib.swapdims(_grid(lib), dim0=0, dim1=1),
    "reshape twice": lambda lib: lib.reshape(_grid(lib), (4, 6), shape=(4, 6)),
    "permute twice": lambda lib: _grid(lib).permute(0, 1, 2, dims=(0, 1, 2)),
    "permute unknown keyword": lambda lib: _grid(lib).permute(dims=(0, 1, 2), order=1),
    "reshape wrong keyword": lambda lib: lib.reshape(_grid(lib), size=(4, 6)),
    "permute nothing": lambda lib: _grid(lib).permute(),
    "permute nothing 0-d": lambda lib: lib.tensor(1.0).permute(),
    "view nothing": lambda lib: _grid(lib).view(),
}


@needs_torch
@pytest.mark.parametrize("name", KEYWORD_CASES)
def test_shape_arguments_by_keyword_as_pytorch(name):
    assert_same(KEYWORD_CASES[name], torch)


def test_keyword_shapes_give_the_positional_result_and_gradient():
    x = _grid(tapegrad).requires_grad_()
    y = tapegrad.permute(tapegrad.reshape(x, shape=(6, 4)), dims=(1, 0))
    assert tuple(y.shape) == (4, 6) and y.grad_fn.name() == "PermuteBackward0"
    np.testing.assert_array_equal(y.detach().numpy(), x.detach().numpy().reshape(6, 4).T)
    (y * tapegrad.arange(24.0).reshape(4, 6)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.arange(24.0).reshape(4, 6).T.reshape(2, 3, 4))


def test_swapaxes_records_a_transpose():
    y = tapegrad.swapaxes(_grid(tapegrad).requires_grad_(), axis0=0, axis1=2)
    assert tuple(y.shape) == (4, 3, 2) and y.grad_fn.name() == "TransposeBackward0"


# -- unfold / fold of integer tensors ----------------------------------------------------------

def _nnf(lib):
    return lib.nn.functional


FOLD_DTYPE_CASES = {
    "unfold long": lambda lib: _nnf(lib).unfold(lib.ones(1, 1, 4, 4, dtype=lib.long), 2),
    "unfold int8 module": lambda lib: lib.nn.Unfold(2)(lib.ones(1, 1, 4, 4, dtype=lib.int8)),
    "unfold uint8 unbatched": lambda lib: _nnf(lib).unfold(lib.ones(1, 4, 4, dtype=lib.uint8), 2),
    "fold int32": lambda lib: _nnf(lib).fold(lib.ones(1, 4, 9, dtype=lib.int32), (4, 4), 2),
    "fold int16 unbatched": lambda lib: _nnf(lib).fold(lib.ones(4, 9, dtype=lib.int16), (4, 4), 2),
    "shape checked first": lambda lib: _nnf(lib).unfold(lib.ones(1, 1, 1, 1, dtype=lib.long), 2),
    "fold shape checked first": lambda lib: _nnf(lib).fold(lib.ones(1, 3, 9, dtype=lib.long),
                                                           (4, 4), 2),
    "unfold bool": lambda lib: _nnf(lib).unfold(lib.tensor([[[[True, False], [False, True]]]]), 1),
    "fold bool overlaps": lambda lib: _nnf(lib).fold(lib.ones(1, 4, 4, dtype=lib.bool), (3, 3), 2),
}


@needs_torch
@pytest.mark.parametrize("name", FOLD_DTYPE_CASES)
def test_unfold_and_fold_dtypes_as_pytorch(name):
    assert_same(FOLD_DTYPE_CASES[name], torch)


def test_unfold_of_floats_still_round_trips_through_fold():
    img = tapegrad.arange(32.0).reshape(1, 2, 4, 4)
    cols = TF.unfold(img, 2, stride=2)
    assert tuple(cols.shape) == (1, 8, 4)
    assert tapegrad.equal(TF.fold(cols, (4, 4), 2, stride=2), img)
    with pytest.raises(NotImplementedError, match="im2col_out_cpu\" not implemented for 'Long'"):
        TF.unfold(img.long(), 2)


# -- refusals in PyTorch's words ---------------------------------------------------------------

REFUSAL_CASES = {
    "roll scalar along a dim": lambda lib: lib.roll(lib.tensor(3.0), 1, 0),
    "roll scalar along -1": lambda lib: lib.tensor(3.0).roll(1, -1),
    "roll scalar flattened": lambda lib: lib.roll(lib.tensor(3.0), 1),
    "roll no shifts": lambda lib: _grid(lib).roll((), 0),
    "roll no shifts no dims": lambda lib: _grid(lib).roll([], []),
    "repeat negative": lambda lib: _grid(lib).repeat(1, 2, -1),
    "repeat two negatives": lambda lib: _grid(lib).repeat(-1, -2, 1),
    "repeat negative new dim": lambda lib: _grid(lib).repeat(-2, 0, 1, 1),
    "as_strided float offset": lambda lib: lib.as_strided(_grid(lib), (2,), (1,), 1.5),
    "as_strided float size": lambda lib: lib.as_strided(_grid(lib), (2.0,), (1,)),
    "as_strided float stride": lambda lib: lib.as_strided(_grid(lib), (2, 2), (1.0, 1)),
    "as_strided later float": lambda lib: lib.as_strided(_grid(lib), (2, 1.0), (1, 1)),
    "as_strided int size": lambda lib: lib.as_strided(_grid(lib), 2, (1,)),
    "as_strided later bool": lambda lib: lib.as_strided(_grid(lib), (2, True), (1, 1)),
    "as_strided size tensor": lambda lib: lib.as_strided(_grid(lib), lib.Size([2]),
                                                         [lib.tensor(3)], lib.tensor(1)),
    "hardtanh bounds": lambda lib: lib.nn.Hardtanh(2.0, 1.0),
    "hardtanh equal bounds": lambda lib: lib.nn.Hardtanh(1, 1),
    "sequential insert": lambda lib: lib.nn.Sequential(lib.nn.ReLU()).insert(0, 3),
}


@needs_torch
@pytest.mark.parametrize("name", REFUSAL_CASES)
def test_refusals_as_pytorch(name):
    assert_same(REFUSAL_CASES[name], torch)


def test_roll_of_a_scalar_is_refused_only_along_a_dim():
    scalar = tapegrad.tensor(3.0)
    assert tapegrad.roll(scalar, 2).item() == 3.0
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        tapegrad.roll(scalar, 1, 0)


def test_negative_repeat_names_the_size_of_the_result():
    with pytest.raises(RuntimeError, match=r"negative dimension -4: \[6, -4\]"):
        tapegrad.ones(3, 4).repeat(2, -1)
