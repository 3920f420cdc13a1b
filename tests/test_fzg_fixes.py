"""Differences found by differential fuzzing of resampling, grids, fold/unfold, padding and the
pixel shuffles against PyTorch (fzg): random ``F.interpolate`` / ``nn.Upsample*`` calls (every
mode, sizes and scale factors, ``recompute_scale_factor``, antialiasing, channels-last inputs),
``F.grid_sample`` and ``F.affine_grid``, ``F.unfold`` / ``F.fold`` / ``Tensor.unfold``, every
``F.pad`` mode and padding module, and ``pixel_(un)shuffle`` / ``channel_shuffle``, compared by
values, gradients, layouts, warnings and errors.

Found: the ``lanczos`` mode of ``F.interpolate`` (antialiased Lanczos-3, and its two errors);
``upsample_*``'s argument parser (a float or bool size, a non-number scale factor) and its int64
check of ``floor(n * scale)`` (an infinite or nan scale factor); ``grid_sample``'s checks in
ATen's order (batch sizes first; non-empty spatial dims) and its backward of an empty batch or
channel dim; ``unfold`` / ``fold`` checking their size arguments before the input's rank (``fold``
the stride second), as the parser reads them and with ATen's length check, and ``unfold`` of a
1-d or 0-d input; a circular pad whose copies overlap, refused only where the slices are dense
and otherwise copied element by element as ATen does; ``pixel_unshuffle`` of an empty input
(returned unchanged, so ``pixel_shuffle``'s gradient of one fails), the pixel shuffles' refusal
of channels-last 3-d inputs, and ``channel_shuffle`` keeping a channels-last 3-d layout.
"""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same, outcome

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

F = tapegrad.nn.functional


def _values(*shape):
    return np.cos(np.arange(int(np.prod(shape)))).reshape(shape)


def _with_grad(lib, x, function):
    """``function(x)``, and the gradient of its sum of squares with respect to ``x``."""
    x = lib.tensor(x, dtype=lib.float64, requires_grad=True) if isinstance(x, np.ndarray) else x
    y = function(x)
    (y * y).sum().backward()
    return y, x.grad


# -- interpolate ------------------------------------------------------------------------------------

def test_lanczos_of_a_constant_image_is_the_constant():
    y = F.interpolate(tapegrad.full((1, 1, 9, 7), 2.5, requires_grad=True), size=(4, 3),
                      mode="lanczos", antialias=True)
    np.testing.assert_allclose(y.detach().numpy(), 2.5, rtol=1e-6)
    assert y.grad_fn.name() == "UpsampleLanczos2DAaBackward0"


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size, scale", [((4, 3), None), ((11, 13), None), (None, 0.4),
                                         (None, 1.7)])
def test_lanczos_values_and_gradients(dtype, size, scale):
    def case(lib):
        x = lib.tensor(_values(2, 2, 9, 7), dtype=getattr(lib, dtype), requires_grad=True)
        return _with_grad(lib, x, lambda x: lib.nn.functional.interpolate(
            x, size=size, scale_factor=scale, mode="lanczos", antialias=True))
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("kwargs", [dict(), dict(align_corners=True, antialias=True),
                                    dict(antialias=True, shape=(1, 1, 4))])
def test_lanczos_errors(kwargs):
    shape = kwargs.pop("shape", (1, 1, 4, 4))
    assert_same(lambda lib: lib.nn.functional.interpolate(lib.ones(shape), scale_factor=0.5,
                                                          mode="lanczos", **kwargs), torch)


@needs_torch
@pytest.mark.parametrize("shape, kwargs", [
    ((1, 2, 4), dict(size=2.5)),
    ((1, 2, 4, 4), dict(size=True, mode="bilinear")),
    ((1, 2, 4, 4, 4), dict(size=2.5, mode="trilinear")),
    ((1, 2, 4, 4), dict(scale_factor="a")),
    ((1, 2, 4, 4), dict(scale_factor=("a", "b"), mode="bicubic")),
    ((1, 2, 4, 4), dict(scale_factor=(2, "a"))),
    ((1, 2, 4, 4), dict(scale_factor=(2, None), mode="nearest-exact")),
    ((1, 2, 4, 4), dict(size=2.5, mode="bicubic", antialias=True)),
    ((1, 2, 4, 4), dict(scale_factor=float("inf"))),
    ((1, 2, 4), dict(scale_factor=float("nan"), mode="linear")),
    ((1, 2, 4, 4), dict(scale_factor=-1e300, mode="bilinear")),
    ((1, 2, 4, 4), dict(scale_factor=float("inf"), mode="area")),
    ((1, 2, 4, 4), dict(size=(2, True))),
    ((1, 2, 4, 4), dict(scale_factor=(True, 2))),
])
def test_interpolate_argument_errors(shape, kwargs):
    assert_same(lambda lib: lib.nn.functional.interpolate(lib.ones(shape), **kwargs), torch)


def test_interpolate_refuses_an_infinite_scale_in_atens_words():
    with pytest.raises(RuntimeError, match="cannot be converted to type int64_t without overflow"):
        F.interpolate(tapegrad.ones(1, 1, 4, 4), scale_factor=float("inf"))


# -- grid_sample ------------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("shape, grid_shape, mode", [
    ((1, 3, 4, 4), (3, 2, 2, 3), "bilinear"), ((1, 3, 4, 4), (2, 2, 2, 2, 3), "bicubic"),
    ((1, 3, 0, 4), (1, 2, 2, 2), "bilinear"), ((1, 3, 2, 0, 2), (1, 2, 2, 2, 3), "bicubic"),
    ((2, 3, 0), (2, 2, 2, 1), "nearest"), ((), (1, 2, 2, 2), "bilinear"),
    ((0, 3, 4, 4), (0, 2, 2, 2), "bilinear"), ((1, 0, 4, 4), (1, 2, 2, 2), "bicubic"),
    ((0, 2, 3, 3, 3), (0, 1, 2, 2, 3), "nearest"),
])
def test_grid_sample_checks_and_empty_inputs(shape, grid_shape, mode):
    def case(lib):
        x, grid = lib.ones(shape, requires_grad=True), lib.zeros(grid_shape, requires_grad=True)
        y = lib.nn.functional.grid_sample(x, grid, mode=mode, align_corners=False)
        y.sum().backward()
        return y, x.grad, grid.grad
    assert_same(case, torch)


def test_grid_sample_of_an_empty_batch_has_empty_gradients():
    x, grid = tapegrad.ones(0, 2, 3, 3, requires_grad=True), tapegrad.zeros(0, 2, 2, 2,
                                                                            requires_grad=True)
    F.grid_sample(x, grid, align_corners=True).sum().backward()
    assert x.grad.shape == (0, 2, 3, 3) and grid.grad.shape == (0, 2, 2, 2)


# -- unfold / fold ----------------------------------------------------------------------------------

_FOLD_CASES = [
    lambda L: L.nn.functional.fold(L.ones(2, 4, 0), (3, 3), 2, stride=0, dilation=0, padding=-1),
    lambda L: L.nn.functional.fold(L.ones(2, 4, 0), (3, 3), 2, padding=-1),
    lambda L: L.nn.functional.fold(L.ones(3), 2, 2, stride=0, padding=-1),
    lambda L: L.nn.functional.fold(L.ones(3, 4, 4), (2, 2, 2), 2),
    lambda L: L.nn.functional.fold(L.ones(3, 4, 4), 3, 2, stride=(1, 1, 1), dilation=(1, 1, 1)),
    lambda L: L.nn.functional.fold(L.ones(1, 4, 4), (3, 3.0), 2),
    lambda L: L.nn.Fold(3, 2.0)(L.ones(1, 4, 4)),
    lambda L: L.nn.functional.unfold(L.ones(2, 0, 3, 3), 2, stride=0, dilation=0, padding=-1),
    lambda L: L.nn.functional.unfold(L.ones(3, 3), 2, stride=0, padding=-1),
    lambda L: L.nn.functional.unfold(L.ones(3, 3, 3, 3, 3), 2, stride=0, padding=-1),
    lambda L: L.nn.functional.unfold(L.ones(3), 2),
    lambda L: L.nn.functional.unfold(L.ones(()), 2),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), (2,)),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), (2, 2, 2.0)),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), 2.0),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), (True, 2)),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), 2, dilation=(1, 1.5)),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), 2, stride=None),
    lambda L: L.nn.Unfold((2, 2, 2))(L.ones(1, 1, 4, 4)),
    lambda L: L.nn.functional.unfold(L.ones(1, 1, 4, 4), (2, True)),
]


@needs_torch
@pytest.mark.parametrize("index", range(len(_FOLD_CASES)))
def test_fold_and_unfold_argument_checks(index):
    assert_same(_FOLD_CASES[index], torch)


def test_fold_checks_its_stride_before_its_dilation():
    with pytest.raises(RuntimeError, match="^stride should be greater than zero"):
        F.fold(tapegrad.ones(1, 4, 4), 3, 2, stride=0, dilation=0)


# -- circular padding -------------------------------------------------------------------------------

def test_an_overlapping_circular_copy_reads_what_it_wrote():
    x = tapegrad.arange(1.0, 41.0).reshape(1, 2, 20).requires_grad_()
    y = F.pad(x, (-12, 12), mode="circular")
    np.testing.assert_array_equal(y.detach().numpy()[0, 0], [*range(13, 21)] * 2 + [13, 14, 15,
                                                                                     16])
    y.backward(tapegrad.ones_like(y))  # autograd sees the copy of the slice as it was
    np.testing.assert_array_equal(x.grad.numpy()[0, 0], [0] * 12 + [2] * 8)


@needs_torch
@pytest.mark.parametrize("shape, pad", [((1, 2, 3), (-2, 2)), ((1, 2, 20), (-12, 12)),
                                        ((1, 1, 20), (-12, 12)), ((2, 3, 5), (-3, 3)),
                                        ((1, 1, 2, 5), (0, 0, -1, 1))])
def test_overlapping_circular_pads(shape, pad):
    def case(lib):
        x = lib.tensor(_values(*shape), requires_grad=True)
        y = lib.nn.functional.pad(x, pad, mode="circular")
        y.backward(lib.tensor(_values(*y.shape)))
        return y, x.grad
    assert_same(case, torch)


# -- pixel and channel shuffles ---------------------------------------------------------------------

def test_pixel_unshuffle_returns_an_empty_input_unchanged():
    assert F.pixel_unshuffle(tapegrad.ones(0, 2, 4, 4), 2).shape == (0, 2, 4, 4)


@needs_torch
@pytest.mark.parametrize("function, shape, factor", [
    ("pixel_unshuffle", (0, 2, 4, 4), 2), ("pixel_unshuffle", (2, 2, 4, 0), 2),
    ("pixel_unshuffle", (0, 1, 2, 2), 2), ("pixel_shuffle", (0, 8, 2, 2), 2),
    ("pixel_shuffle", (2, 4, 3, 0), 2), ("pixel_shuffle", (0, 4, 2, 2), 1),
])
def test_pixel_shuffles_of_empty_inputs(function, shape, factor):
    def case(lib):
        x = lib.ones(shape, requires_grad=True)
        y = getattr(lib.nn.functional, function)(x, factor)
        y.sum().backward()
        return y, x.grad
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("function, shape, factor", [
    ("pixel_shuffle", (2, 3, 8, 2, 2), 2), ("pixel_unshuffle", (2, 3, 2, 4, 4), 2),
    ("pixel_shuffle", (2, 3, 2, 4, 4), 1), ("pixel_shuffle", (0, 3, 4, 2, 2), 2),
    ("channel_shuffle", (2, 4, 3, 2, 2), 2), ("channel_shuffle", (2, 6, 3, 2), 3),
])
def test_shuffles_of_channels_last_inputs(function, shape, factor):
    def case(lib):
        x = lib.tensor(_values(*shape))
        x = x.contiguous(memory_format=lib.channels_last if len(shape) == 4 else
                         lib.channels_last_3d).requires_grad_()
        y = getattr(lib.nn.functional, function)(x, factor)
        y.backward(lib.tensor(_values(*y.shape)))
        layout = lib.channels_last if y.dim() == 4 else lib.channels_last_3d
        return y, x.grad, y.is_contiguous(), y.is_contiguous(memory_format=layout)
    assert_same(case, torch)


def test_channel_shuffle_keeps_a_channels_last_3d_layout():
    x = tapegrad.ones(2, 4, 3, 2, 2).contiguous(memory_format=tapegrad.channels_last_3d)
    assert F.channel_shuffle(x, 2).is_contiguous(memory_format=tapegrad.channels_last_3d)
