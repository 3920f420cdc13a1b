"""``F.pad`` in every mode and the padding modules, against PyTorch and finite differences.

Values, gradients and the whole recorded graph (node names and edges) are compared with PyTorch
for random shapes and amounts (negative ones crop), batched and not; bad calls must raise
PyTorch's exception with its exact message and leave their input as it was.
"""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck

F = nn.functional
MODES = ("reflect", "replicate", "circular")


def _random_cases(seed, count=4):
    """``(mode, shape, pad)`` for every mode, padded rank and batching: amounts from -1 up to
    below the size (reflect's limit, and what circular can wrap after a crop of one on the other
    side), replicate's up to past the size."""
    rng = np.random.default_rng(seed)
    cases = []
    for mode in MODES:
        for dims in (1, 2, 3):
            for batched in (False, True):
                for _ in range(count):
                    shape = tuple(rng.integers(1, 3, 1 + batched)) + tuple(
                        rng.integers(3, 6, dims))
                    sizes = shape[:-dims - 1:-1]  # the last dimension first, as pad runs
                    beyond = 2 if mode == "replicate" else 0
                    pad = tuple(int(rng.integers(-1, size + beyond))
                                for size in sizes for _ in range(2))
                    cases.append((mode, shape, pad))
    return cases


CASES = _random_cases(0)


def _graph(node):
    """The recorded graph below ``node``: its name and, recursively, its edges' graphs."""
    if node is None:
        return None
    return node.name(), tuple(_graph(child) for child, _ in node.next_functions)


def _both(torch, shape, pad, mode, seed=0):
    """The same float64 input padded by both libraries: (tapegrad x, y), (torch x, y)."""
    array = np.random.default_rng(seed).standard_normal(shape)
    x, tx = tapegrad.tensor(array, requires_grad=True), torch.tensor(array, requires_grad=True)
    return (x, F.pad(x, pad, mode)), (tx, torch.nn.functional.pad(tx, pad, mode))


@pytest.mark.parametrize("mode, shape, pad", CASES)
def test_values_gradients_and_graph_equal_pytorchs(mode, shape, pad):
    torch = pytest.importorskip("torch")
    (x, y), (tx, ty) = _both(torch, shape, pad, mode)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=0, atol=0)
    assert _graph(y.grad_fn) == _graph(ty.grad_fn)
    upstream = np.random.default_rng(1).standard_normal(tuple(ty.shape))
    y.backward(tapegrad.tensor(upstream))
    ty.backward(torch.tensor(upstream))
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-13, atol=1e-13)


OVERLAP = ("RuntimeError: unsupported operation: some elements of the input tensor and the "
           "written-to tensor refer to a single memory location. Please clone() the tensor before "
           "performing the operation.")


def _circular_unwritten(size, before, after):
    """Which elements of ATen's ``_pad_circular`` result along the padded dimension come from
    memory it never wrote (PyTorch's values there are undefined): its copies replayed on a
    NaN-filled result, element by element in order as its copy loop runs, with NumPy's slice
    bounds (which are ATen's). None where it refuses before any copy."""
    length = size + before + after
    if length <= 0 or max(before, after) > size:
        return None  # an empty result, or refused before any copy
    out = np.full(length, np.nan)
    try:
        out[max(before, 0):length - max(after, 0)] = np.zeros(size)[
            max(-before, 0):size - max(-after, 0)]
    except ValueError:
        return None  # refused: the slices differ in length
    copies = []
    if before > 0:
        copies.append((0, before, length - before - max(after, 0), length - max(after, 0)))
    if after > 0:
        copies.append((length - after, length, max(before, 0), max(before, 0) + after))
    for target_start, target_stop, source_start, source_stop in copies:
        written, read = (range(*slice(start, stop).indices(length)) for start, stop in
                         ((target_start, target_stop), (source_start, source_stop)))
        if len(written) != len(read):
            return None  # refused: the slices differ in length
        for i, j in zip(written, read):
            out[i] = out[j]
    return np.isnan(out)


def _outcome(library, shape, pad, mode):
    """The padded values, or the exception's type and message."""
    x = library.tensor(np.arange(np.prod(shape), dtype=float).reshape(shape))
    functional = F if library is tapegrad else library.nn.functional
    try:
        return functional.pad(x, pad, mode).numpy()
    except Exception as exc:  # noqa: BLE001  (which exception is part of what is compared)
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(2, 4), (1, 3)])
def test_every_amount_on_one_dimension_does_what_pytorch_does(mode, shape):
    """All amounts from a crop past the far end to a pad past the size: the same values, or the
    same exception and message. Where PyTorch's circular copy reads memory it never wrote, its
    values are undefined (tapegrad's are zeros there), and only the others are compared; where
    its slices are contiguous, both refuse such an overlapping copy."""
    torch = pytest.importorskip("torch")
    size = shape[-1]
    for pad in [(before, after) for before in range(-2 * size - 1, size + 2)
                for after in range(-2 * size - 1, size + 2)]:
        got, want = _outcome(tapegrad, shape, pad, mode), _outcome(torch, shape, pad, mode)
        unwritten = _circular_unwritten(size, *pad) if mode == "circular" else None
        if isinstance(want, str):
            assert got == want, pad
        elif unwritten is not None and unwritten.any():
            assert not isinstance(got, str), (pad, got)
            np.testing.assert_array_equal(got[..., ~unwritten], want[..., ~unwritten], str(pad))
        else:
            np.testing.assert_array_equal(got, want, str(pad))


def test_pytorch_refuses_a_circular_read_of_unwritten_contiguous_slices():
    torch = pytest.importorskip("torch")
    assert _outcome(torch, (1, 4), (2, -3), "circular") == OVERLAP


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape, pad", [((2, 5), (2, -1)), ((2, 3, 4), (1, 2, -1, 2)),
                                        ((1, 2, 3, 3, 4), (2, 1, 0, 2, 1, -1))])
def test_gradients_match_finite_differences(mode, shape, pad):
    x = tapegrad.tensor(np.random.default_rng(2).standard_normal(shape), requires_grad=True)
    assert gradcheck(lambda x: F.pad(x, pad, mode), (x,))
    assert gradgradcheck(lambda x: F.pad(x, pad, mode), (x,))


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
@pytest.mark.parametrize("shape, pad", [((3, 4), (1, 2)), ((2, 3, 4, 5), (1, 0, 2, 1)),
                                        ((2, 3, 4, 5), (1, 1, 0, 2, 1, 1))])
def test_second_and_third_derivatives_record_pytorchs_nodes(mode, shape, pad):
    torch = pytest.importorskip("torch")
    graphs, zero_grads = [], []
    for library, (x, y) in zip((tapegrad, torch), _both(torch, shape, pad, mode)):
        upstream = library.ones(tuple(y.shape), dtype=library.float64, requires_grad=True)
        (grad_x,) = library.autograd.grad(y, x, upstream, create_graph=True)
        weights = library.tensor(np.arange(grad_x.numel(), dtype=float).reshape(grad_x.shape),
                                 requires_grad=True)
        (grad_upstream,) = library.autograd.grad(grad_x, upstream, weights, create_graph=True)
        graphs.append((_graph(grad_x.grad_fn), _graph(grad_upstream.grad_fn),
                       grad_upstream.detach().numpy()))
        # The double-backward node's edge to the input carries zeros, as in PyTorch.
        zero_grads.append(library.autograd.grad(grad_x.sum(), x)[0].numpy())
    assert graphs[0][:2] == graphs[1][:2]
    assert graphs[0][0][0] == f"{'Reflection' if mode == 'reflect' else 'Replication'}Pad" \
                              f"{len(pad) // 2}DBackwardBackward0"
    np.testing.assert_array_equal(graphs[0][2], graphs[1][2])
    np.testing.assert_array_equal(zero_grads[0], zero_grads[1])


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_integer_input_is_padded_as_pytorch_pads_it(mode):
    torch = pytest.importorskip("torch")
    array = np.arange(24).reshape(2, 3, 4)
    got = F.pad(tapegrad.tensor(array), (1, 2, 2, 0), mode)
    want = torch.nn.functional.pad(torch.tensor(array), (1, 2, 2, 0), mode=mode)
    assert got.dtype == tapegrad.int64
    np.testing.assert_array_equal(got.numpy(), want.numpy())


# --------------------------------------------------------------------------------- errors

BAD_CALLS = {
    # checks every mode shares, in ATen's order
    "odd-length": ((3, 4), (1,), "reflect", None),
    "odd-length-constant": ((3, 4), (1, 1, 1), "constant", None),
    "too-long": ((3, 4), (1, 1, 1, 1, 1, 1), "replicate", None),
    "too-long-constant": ((4,), (1, 1, 1, 1), "constant", None),
    "unknown-mode": ((3, 4), (1, 1), "Reflect", None),
    "value-with-reflect": ((3, 4), (1, 1), "reflect", 1.0),
    "value-with-circular": ((3, 4), (1, 1), "circular", 2),
    # ranks a non-constant mode does not take
    "0d": ((), (), "reflect", None),
    "1d": ((4,), (1, 1), "reflect", None),
    "2d-pad-4": ((3, 4), (1, 1, 1, 1), "replicate", None),
    "4d-pad-2": ((2, 3, 4, 5), (1, 1), "circular", None),
    "5d-pad-4": ((1, 2, 3, 4, 5), (1, 1, 1, 1), "reflect", None),
    "6d-pad-6": ((1, 1, 2, 3, 4, 5), (1,) * 6, "replicate", None),
    "empty-pad": ((3, 4), (), "circular", None),
    # reflect: amounts below the size
    "reflect-1d-left": ((2, 3, 4), (4, 0), "reflect", None),
    "reflect-1d-right": ((3, 4), (0, 5), "reflect", None),
    "reflect-2d-height": ((3, 1, 4), (0, 0, 1, 1), "reflect", None),
    "reflect-3d-depth": ((2, 3, 4, 5), (1, 1, 1, 1, 3, 0), "reflect", None),
    "reflect-3d-batched-width": ((1, 2, 3, 4, 5), (5, 1, 0, 0, 0, 0), "reflect", None),
    # crops that leave nothing
    "reflect-1d-too-small": ((2, 3, 4), (-2, -2), "reflect", None),
    "replicate-1d-too-small": ((3, 4), (-3, -2), "replicate", None),
    "reflect-2d-too-small": ((3, 4, 5), (-3, -3, -2, -2), "reflect", None),
    "replicate-2d-too-small": ((3, 4, 5), (-3, -2, -2, -2), "replicate", None),
    "reflect-3d-too-small": ((2, 3, 4, 5), (-3, -3, -2, -2, -2, -2), "reflect", None),
    "replicate-3d-too-small": ((2, 3, 4, 5), (-3, -2, -2, -2, -1, -2), "replicate", None),
    "reflect-2d-negative-height": ((3, 4, 5), (0, 0, -2, -3), "reflect", None),
    "reflect-3d-negative-depth": ((2, 3, 4, 5), (0, 0, 0, 0, -2, -3), "reflect", None),
    "replicate-2d-negative-width": ((3, 4, 5), (-6, 0, 0, 0), "replicate", None),
    "replicate-3d-negative-depth": ((2, 3, 4, 5), (0, 0, 0, 0, -2, -2), "replicate", None),
    # empty dimensions other than the batch
    "reflect-empty-channels": ((2, 0, 4), (1, 1), "reflect", None),
    "replicate-empty-width": ((3, 4, 0), (0, 0, 0, 0), "replicate", None),
    "reflect-empty-unbatched": ((0, 4), (1, 1), "reflect", None),
    # circular
    "circular-wraps-twice": ((2, 3, 4), (5, 0), "circular", None),
    "circular-wraps-twice-height": ((2, 3, 4, 5), (0, 0, 5, 0), "circular", None),
    "circular-wraps-empty": ((3, 0), (1, 1), "circular", None),
    "circular-negative": ((2, 3, 4), (-3, -2), "circular", None),
    "circular-negative-depth": ((2, 3, 4, 5), (0, 0, 0, 0, -2, -2), "circular", None),
    "circular-crop-past-the-end": ((2, 3, 4), (1, -5), "circular", None),
    "circular-crop-leaves-one": ((2, 3, 4), (-5, 3), "circular", None),
    # constant: PyTorch crops with narrow first
    "constant-crop-past-the-end": ((3, 4), (-3, -2), "constant", None),
    "constant-crop-start": ((2, 3, 4), (-5, 1), "constant", None),
    "constant-crop-height": ((3, 4), (-1, -1, -4, 1), "constant", None),
}


def _pad_bad(library, name):
    shape, pad, mode, value = BAD_CALLS[name]
    x = library.ones(shape, dtype=library.float64)
    functional = F if library is tapegrad else library.nn.functional
    return functional.pad(x, pad, mode, value)


def _error(run):
    with pytest.raises(Exception) as caught:
        run()
    return type(caught.value).__name__, str(caught.value)


@pytest.mark.parametrize("name", BAD_CALLS)
def test_bad_calls_raise_pytorchs_exception_and_message(name):
    torch = pytest.importorskip("torch")
    assert _error(lambda: _pad_bad(tapegrad, name)) == _error(lambda: _pad_bad(torch, name))


@pytest.mark.parametrize("bad", [
    lambda T, x: T.nn.functional.pad(x, 1),
    lambda T, x: T.nn.functional.pad(x, (1.5, 1)),
    lambda T, x: T.nn.functional.pad(x, (True, 1)),
    lambda T, x: T.nn.functional.pad(x, (1, 1, 1.5, 1)),
    lambda T, x: T.nn.functional.pad(x, (1, T.tensor(2.0))),
    lambda T, x: T.nn.functional.pad(x, (1, 1), None),
    lambda T, x: T.nn.functional.pad(x.bool(), (1, 1), "reflect"),
    lambda T, x: T.nn.functional.pad(x.bool(), (1, 1, 0, 0), "replicate"),
])
def test_bad_arguments_raise_pytorchs_exception_and_message(bad):
    torch = pytest.importorskip("torch")
    assert _error(lambda: bad(tapegrad, tapegrad.ones(2, 3, 4))) == _error(
        lambda: bad(torch, torch.ones(2, 3, 4)))


@pytest.mark.parametrize("pad", [[2, 1], (1, True), (np.int64(1), 0), "tensor"])
def test_amounts_pytorchs_parser_accepts(pad):
    torch = pytest.importorskip("torch")
    shapes = []
    for library in (tapegrad, torch):
        amounts = (library.tensor(1), 0) if pad == "tensor" else pad
        functional = F if library is tapegrad else library.nn.functional
        shapes.append(tuple(functional.pad(library.ones(2, 3), amounts, "replicate").shape))
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize("name, message", [
    ("odd-length", "Padding length must be divisible by 2"),
    ("reflect-1d-left", "Argument #4: Padding size should be less than the corresponding input "
                        "dimension, but got: padding (4, 0) at dimension 2 of input [2, 3, 4]"),
    ("replicate-2d-too-small", "input (H: 4, W: 5 ) is too small. Calculated output H: 0 W: 0"),
    ("circular-wraps-twice", "Padding value causes wrapping around more than once."),
])
def test_key_messages_are_pytorchs_words(name, message):
    """Pinned as literals too, so that they are checked where PyTorch is not installed."""
    with pytest.raises(RuntimeError) as caught:
        _pad_bad(tapegrad, name)
    assert str(caught.value) == message


@pytest.mark.parametrize("name", ["reflect-1d-left", "reflect-2d-too-small", "circular-negative",
                                  "circular-crop-past-the-end", "5d-pad-4"])
def test_a_failing_call_changes_nothing(name):
    shape, pad, mode, _ = BAD_CALLS[name]
    leaf = tapegrad.randn(*shape, dtype=tapegrad.float64, requires_grad=True)
    x = leaf * 2
    before = (x.detach().numpy().copy(), x._version, x.grad_fn, x.grad_fn.next_functions)
    with pytest.raises((RuntimeError, NotImplementedError)):
        F.pad(x, pad, mode)
    assert x._version == before[1] and x.grad_fn is before[2]
    assert x.grad_fn.next_functions == before[3]
    np.testing.assert_array_equal(x.detach().numpy(), before[0])
    x.sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), np.full(shape, 2.0))


# -------------------------------------------------------------------------------- modules

MODULES = [
    ("ReflectionPad1d", (2,), (2, 3, 4)), ("ReflectionPad1d", ((3, 1),), (3, 4)),
    ("ReflectionPad2d", ((1, 1, 2, 0),), (2, 3, 4, 5)), ("ReflectionPad2d", (1,), (3, 4, 5)),
    ("ReflectionPad3d", (1,), (1, 2, 3, 3, 4)), ("ReplicationPad1d", ((0, 4),), (2, 3, 4)),
    ("ReplicationPad2d", (3,), (1, 2, 3)),
    ("ReplicationPad3d", ((1, 0, 2, 1, 0, 3),), (2, 3, 2, 2)),
    ("CircularPad1d", (2,), (2, 3, 4)), ("CircularPad2d", ((1, 0, 2, 1),), (3, 4, 5)),
    ("CircularPad3d", (1,), (2, 3, 2, 2)), ("ZeroPad1d", ((1, 2),), (3, 4)),
    ("ZeroPad2d", (2,), (1, 2, 3, 4)), ("ZeroPad3d", ([1, 0, 0, 1, 2, 0],), (2, 3, 2, 2)),
    ("ConstantPad1d", (2, 3.5), (3, 4)), ("ConstantPad2d", ((1, 0, 2, 1), -1.0), (2, 3, 4)),
    ("ConstantPad3d", (1, 0.25), (2, 2, 2, 2)),
]


@pytest.mark.parametrize("name, args, shape", MODULES)
def test_modules_print_and_pad_as_pytorchs(name, args, shape):
    torch = pytest.importorskip("torch")
    module, reference = getattr(nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(module) == repr(reference)
    assert module.padding == reference.padding
    array = np.random.default_rng(3).standard_normal(shape)
    x, tx = tapegrad.tensor(array, requires_grad=True), torch.tensor(array, requires_grad=True)
    y, ty = module(x), reference(tx)
    np.testing.assert_array_equal(y.detach().numpy(), ty.detach().numpy())
    assert _graph(y.grad_fn) == _graph(ty.grad_fn)


def test_zero_pad_is_a_constant_pad_and_modules_are_exported():
    assert isinstance(nn.ZeroPad2d(1), nn.ConstantPad2d)
    assert nn.ZeroPad2d(1).value == 0.0
    for name in ("ReflectionPad3d", "ReplicationPad2d", "CircularPad1d", "ZeroPad3d",
                 "ConstantPad1d"):
        assert name in nn.__all__ and name in nn.modules.__all__


@pytest.mark.parametrize("name, shape", [("CircularPad1d", (4,)),
                                         ("CircularPad2d", (2, 3, 4, 5, 6)),
                                         ("CircularPad3d", (3, 4, 5))])
def test_circular_modules_refuse_other_ranks_as_pytorchs(name, shape):
    torch = pytest.importorskip("torch")
    assert _error(lambda: getattr(nn, name)(1)(tapegrad.ones(*shape))) == _error(
        lambda: getattr(torch.nn, name)(1)(torch.ones(*shape)))
