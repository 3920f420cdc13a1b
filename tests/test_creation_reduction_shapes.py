"""Factories, reductions and shapes against PyTorch: numpy's argument names (``axis``,
``keepdims``, ``size``), ranges bit for bit, reductions' ``dtype=``, what ``tensor()`` infers and
refuses, size arguments, shape errors, and the generator's state.

Rows are written against a module ``T`` (``tapegrad`` or PyTorch itself): each must give the same
dtype and values, or raise the same exception with the same message, in both.
"""
import random
import warnings

import numpy as np
import pytest

import tapegrad

pytestmark = pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy")


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def outcome(fn, T):
    """What ``fn(T)`` gives: a result's dtype, shape and values, or an exception's type and
    message (their first line)."""
    try:
        result = fn(T)
    except Exception as error:  # noqa: BLE001  the error is the outcome to compare
        return type(error).__name__, str(error).splitlines()[0]
    if isinstance(result, tuple):  # a torch.Size, or values and indices (compared: values)
        if not hasattr(result[0], "dtype"):
            return tuple(result)
        result = result[0]
    return str(result.dtype), tuple(result.shape), result.tolist()


def same_as_torch(fn, torch):
    assert outcome(fn, tapegrad) == outcome(fn, torch)


# --------------------------------------------------------------------- numpy's argument names

def _x(T):
    return T.arange(12.0).reshape(3, 4)


NUMPY_NAMES = {
    "sum-axis": lambda T: _x(T).sum(axis=0),
    "sum-keepdims": lambda T: _x(T).sum(1, keepdims=True),
    "torch.sum-axis": lambda T: T.sum(_x(T), axis=1, keepdims=True),
    "mean-axis": lambda T: _x(T).mean(axis=1),
    "max-axis": lambda T: _x(T).max(axis=1),
    "min-axis": lambda T: T.min(_x(T), axis=0, keepdims=True),
    "std-axis": lambda T: _x(T).std(axis=0),
    "var-axis": lambda T: _x(T).var(axis=1, keepdims=True),
    "prod-axis": lambda T: _x(T).prod(axis=1),
    "cumsum-axis": lambda T: _x(T).cumsum(axis=1),
    "argmax-axis": lambda T: _x(T).argmax(axis=1),
    "squeeze-axis": lambda T: _x(T).reshape(1, 12).squeeze(axis=0),
    "unsqueeze-axis": lambda T: _x(T).unsqueeze(axis=0),
    "cat-axis": lambda T: T.cat([_x(T), _x(T)], axis=1),
    "stack-axis": lambda T: T.stack([_x(T), _x(T)], axis=2),
    "softmax-axis": lambda T: _x(T).softmax(axis=0),
    "dim-and-axis": lambda T: _x(T).sum(dim=0, axis=0),
    "positional-dim-and-axis": lambda T: T.sum(_x(T), 0, axis=1),
    "zeros-size": lambda T: T.zeros(size=(2, 1)),
    "ones-size": lambda T: T.ones(size=[2]),
    "empty-size": lambda T: T.empty(size=(0, 3)),
    "rand-size": lambda T: T.rand(size=(1, 2)).shape,
    "randn-size": lambda T: T.randn(size=(3,)).shape,
    "new_zeros-size": lambda T: _x(T).new_zeros(size=(2,)),
    "arange-end": lambda T: T.arange(end=3),
    "randint-high-size": lambda T: T.randint(high=5, size=(2,)).shape,
}


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_numpy_argument_names(name, torch):
    same_as_torch(NUMPY_NAMES[name], torch)


# -------------------------------------------------------------------------------------- ranges

def _range_cases(count):
    rng = random.Random(7)
    for _ in range(count):
        start = round(rng.uniform(-10, 10), rng.randint(0, 4))
        step = rng.choice([1, -1]) * (round(rng.uniform(0.001, 3), rng.randint(1, 4)) or 0.5)
        yield start, round(start + step * rng.randint(1, 300), rng.randint(0, 4)), step


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "int16"])
def test_arange_is_bit_exact(dtype, torch):
    for start, end, step in _range_cases(60):
        fn = lambda T: T.arange(start, end, step, dtype=getattr(T, dtype))  # noqa: E731
        assert outcome(fn, tapegrad) == outcome(fn, torch), (start, end, step)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "uint8"])
def test_linspace_and_logspace_are_bit_exact(dtype, torch):
    rng = random.Random(11)
    for _ in range(60):
        start, end = round(rng.uniform(0, 30), 3), round(rng.uniform(-30, 30), 4)
        steps = rng.choice([0, 1, 2, 5, 10, 33, 250])
        fns = [lambda T: T.linspace(start, end, steps, dtype=getattr(T, dtype))]
        if dtype != "float16":
            fns.append(lambda T: T.logspace(start / 10, end / 10, steps, base=3.0,
                                            dtype=getattr(T, dtype)))
        for fn in fns:
            assert outcome(fn, tapegrad) == outcome(fn, torch), (start, end, steps)


RANGES = {
    "linspace-0.3": lambda T: T.linspace(0, 0.3, 4),
    "linspace-small": lambda T: T.linspace(0.0001, 0.02, 10),
    "arange-fused": lambda T: T.arange(-8.0, 8.0, 0.1),
    "arange-0.05": lambda T: T.arange(0, 1, 0.05),
    "arange-ints": lambda T: T.arange(0, 10, 3),
    "arange-int32-float-step": lambda T: T.arange(0, 5, 1.5, dtype=T.int32),
    "arange-float-bounds-long": lambda T: T.arange(-2.7, 3.2, 1.2, dtype=T.int64),
    "arange-step-sign": lambda T: T.arange(0, 5, -1),
    "arange-inf": lambda T: T.arange(0, float("inf")),
    "linspace-negative-steps": lambda T: T.linspace(0, 1, -1),
    "logspace-one": lambda T: T.logspace(-0.8, 2, 1, dtype=T.int32),
}


@pytest.mark.parametrize("name", RANGES)
def test_range_rows(name, torch):
    same_as_torch(RANGES[name], torch)


# ------------------------------------------------------------------------ reductions' dtype=

def _u8(T):
    return T.tensor([[50, 100, 200], [250, 255, 50]], dtype=T.uint8)


def _i32(T):
    return T.tensor([[1, 2, 3], [4, 5, 6]], dtype=T.int32)


REDUCTIONS = {
    "sum-uint8-wraps": lambda T: _u8(T).sum(dtype=T.uint8),
    "sum-dim-int8": lambda T: _u8(T).sum(1, dtype=T.int8),
    "sum-int32": lambda T: _i32(T).sum(dtype=T.int32),
    "sum-int32-default": lambda T: _i32(T).sum(),
    "sum-bool-dtype": lambda T: T.tensor([True, False, True]).sum(dtype=T.bool),
    "sum-float16": lambda T: _i32(T).sum(dtype=T.float16),
    "nansum-int32": lambda T: _i32(T).nansum(dtype=T.int32),
    "prod-int32": lambda T: _i32(T).prod(dtype=T.int32),
    "prod-uint8-wraps": lambda T: _u8(T).prod(dtype=T.uint8),
    "prod-float-to-long": lambda T: T.ones(3).prod(dtype=T.long),
    "cumsum-int32": lambda T: _i32(T).cumsum(1, dtype=T.int32),
    "cumsum-uint8": lambda T: _i32(T).cumsum(1, dtype=T.uint8),
    "cumprod-default": lambda T: _i32(T).cumprod(1),
    "mean-long-dtype": lambda T: T.ones(3).mean(dtype=T.long),
    "mean-int": lambda T: _i32(T).mean(),
    "trace-uint8": lambda T: _u8(T)[:, :2].trace(),
    "trace-int32": lambda T: T.eye(2, dtype=T.int32).trace(),
    "trace-bool": lambda T: T.eye(2, dtype=T.bool).trace(),
    "argmax-bool": lambda T: T.tensor([True, False]).argmax(),
    "argmin-bool-dim": lambda T: T.tensor([True, False]).argmin(0),
    "max-bool": lambda T: T.tensor([True, False]).max(),
    "softmax-long": lambda T: _i32(T).long().softmax(1),
    "softmax-long-dim0": lambda T: _i32(T).long().softmax(0),
    "log_softmax-byte": lambda T: _u8(T).log_softmax(-1),
}


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_rows(name, torch):
    same_as_torch(REDUCTIONS[name], torch)


# ----------------------------------------------------------------------- building tensors

def _arr():
    return np.arange(6).reshape(2, 3)


CONSTRUCTION = {
    "uint8-300": lambda T: T.tensor([300], dtype=T.uint8),
    "int8-200": lambda T: T.tensor(200, dtype=T.int8),
    "uint8-minus-1-wraps": lambda T: T.tensor([-1], dtype=T.uint8),
    "uint8-minus-256": lambda T: T.tensor([-256], dtype=T.uint8),
    "uint8-float-255.5": lambda T: T.tensor([255.5], dtype=T.uint8),
    "uint8-float-negative": lambda T: T.tensor([-1.0], dtype=T.uint8),
    "int32-2**31": lambda T: T.tensor([2 ** 31], dtype=T.int32),
    "2**63": lambda T: T.tensor([2 ** 63]),
    "2**63-float32": lambda T: T.tensor([2 ** 63], dtype=T.float32),
    "1e40-float32": lambda T: T.tensor([1e40], dtype=T.float32),
    "nan-long": lambda T: T.tensor([float("nan")], dtype=T.long),
    "inf-long": lambda T: T.tensor([float("inf")], dtype=T.long),
    "numpy-array-wraps": lambda T: T.tensor(np.array([300]), dtype=T.uint8),
    "tensor-leaf-checked": lambda T: T.tensor([T.tensor(300)], dtype=T.uint8),
    "full-uint8-256": lambda T: T.full((2,), 256, dtype=T.uint8),
    "full-uint8-minus-1": lambda T: T.full((2,), -1, dtype=T.uint8),
    "full-nan-long": lambda T: T.full((2,), float("nan"), dtype=T.long),
    "full-int8": lambda T: T.full((1,), 300, dtype=T.int8),
    "full-int32": lambda T: T.full((1,), 2 ** 40, dtype=T.int32),
    "full-float32": lambda T: T.full((1,), 1e40, dtype=T.float32),
    "full-float16-inf": lambda T: T.full((1,), 1e40, dtype=T.float16),
    "full_like-uint8": lambda T: T.full_like(T.zeros(2, dtype=T.uint8), 256),
    "strings": lambda T: T.tensor(["a", "b"]),
    "string": lambda T: T.tensor("a"),
    "number-then-string": lambda T: T.tensor([1.0, "a"]),
    "none-inside": lambda T: T.tensor([1.0, None]),
    "none": lambda T: T.tensor(None),
    "dict": lambda T: T.tensor({1: 2}),
    "1-d-tensors": lambda T: T.tensor([T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0])]),
    "0-d-tensors": lambda T: T.tensor([T.tensor(1.0), T.tensor(2)]),
    "ragged": lambda T: T.tensor([[1, 2], [3]]),
    "range": lambda T: T.as_tensor(range(4)),
    "negative-strides-from_numpy": lambda T: T.from_numpy(_arr()[:, ::-1]),
    "negative-strides-tensor": lambda T: T.tensor(_arr()[::-1]),
    "negative-strides-as_tensor": lambda T: T.as_tensor(_arr()[::-1]),
    "object-array": lambda T: T.from_numpy(np.array([1, "a"], dtype=object)),
    "np.float64-leaf": lambda T: T.tensor([np.float64(1.5), 2.0]),
    "np.float32-and-int": lambda T: T.tensor([np.float32(1.5), 2]),
    "np.int32-leaves": lambda T: T.tensor([np.int32(1), np.int32(2)]),
    "np.int32-and-int": lambda T: T.tensor([np.int32(1), 2]),
    "np.int16-and-np.int32": lambda T: T.tensor([np.int16(1), np.int32(2)]),
    "np.uint8-and-bool": lambda T: T.tensor([np.uint8(1), True]),
    "list-of-arrays": lambda T: T.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
    "nested-np.float64": lambda T: T.tensor([[np.float64(1)], [2.0]]),
    "mixed-python": lambda T: T.tensor([1, 2.0, True]),
    "float64-tensor-leaf": lambda T: T.tensor([T.tensor(1.5, dtype=T.float64)]),
}


@pytest.mark.parametrize("name", CONSTRUCTION)
def test_construction_rows(name, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's own cast warnings, if any
        same_as_torch(CONSTRUCTION[name], torch)


def test_list_of_arrays_warns_once_as_pytorch_does():
    from tapegrad.ops import creation
    creation._warn_list_of_arrays_is_slow.cache_clear()
    with pytest.warns(UserWarning, match="Creating a tensor from a list of numpy.ndarrays"):
        tapegrad.tensor([np.zeros(2), np.ones(2)])


# ------------------------------------------------------------------------- sizes and shapes

def _x3(T):
    return T.arange(24.0).reshape(2, 3, 4)


SHAPES = {
    "zeros-tensor": lambda T: T.zeros(T.tensor([2, 3])),
    "zeros-float-varargs": lambda T: T.zeros(2.0, 3),
    "ones-tuple-and-int": lambda T: T.ones((2, 3), 4),
    "zeros-float-in-list": lambda T: T.zeros([2, 3.0]),
    "ones-none": lambda T: T.ones(2, None),
    "zeros-string": lambda T: T.zeros("a"),
    "rand-float": lambda T: T.rand(2.5),
    "empty-0-d-tensor": lambda T: T.empty(T.tensor(3)).shape,
    "zeros-0-d-tensor-varargs": lambda T: T.zeros(T.tensor(3), 2).shape,
    "zeros-0-d-tensor-in-tuple": lambda T: T.zeros((T.tensor(2), 3)).shape,
    "zeros-numpy-int": lambda T: T.zeros(np.int64(2)).shape,
    "zeros-float-tensor": lambda T: T.zeros(T.tensor(2.0)),
    "zeros-negative": lambda T: T.zeros(-1),
    "ones-negative": lambda T: T.ones(-1),
    "linear-0-d-tensor": lambda T: T.nn.Linear(T.tensor(2), 3).weight.shape,
    "view-tensor": lambda T: _x3(T).view(T.tensor([3, 2])),
    "view-0-d-tensor": lambda T: _x3(T).view(T.tensor(24)).shape,
    "view-float": lambda T: _x3(T).view(2.0, 12),
    "reshape-tensor": lambda T: _x3(T).reshape(T.tensor([3, 8])),
    "view-minus-2": lambda T: _x3(T).view(-2, 12),
    "view-minus-3-second": lambda T: _x3(T).view(2, -3, 4),
    "reshape-two-inferred": lambda T: _x3(T).reshape(6, -1, -1),
    "flatten-out-of-range": lambda T: _x3(T).flatten(1, 3),
    "flatten-negative-out-of-range": lambda T: _x3(T).flatten(-4),
    "flatten-reversed": lambda T: _x3(T).flatten(2, 1),
    "flatten-0-d": lambda T: T.tensor(1.0).flatten(),
    "cat-0-d": lambda T: T.cat([T.tensor(1.0), T.tensor(2.0)]),
    "cat-0-d-second": lambda T: T.cat([T.ones(2), T.tensor(2.0)]),
    "cat-tensor": lambda T: T.cat(T.ones(2, 3)),
    "cat-int-element": lambda T: T.cat([T.ones(2), 1]),
    "stack-tensor": lambda T: T.stack(T.ones(2, 3)),
    "cat-dim-out-of-range": lambda T: T.cat((_x3(T),), dim=3),
    "permute-too-many": lambda T: T.ones(2, 4, 8).permute(0, 2, 1, 3),
    "permute-too-few": lambda T: _x3(T).permute(0, 1),
    "permute-duplicate": lambda T: _x3(T).permute(0, 0, 1),
    "repeat_interleave-sizes": lambda T: T.tensor([1, 2]).repeat_interleave(T.tensor([1, 2, 3])),
    "repeat_interleave-dim": lambda T: T.tensor([[1, 2]]).repeat_interleave(T.tensor([1, 2, 3]),
                                                                             dim=1),
    "index-shapes-mismatch": lambda T: T.arange(6).view(2, 3)[[0, 1], [0, 1, 2]],
    "index-shapes-mismatch-sliced": lambda T: T.arange(24).view(2, 3, 4)[[0, 1], :, [0, 1, 2]],
    "index-shapes-broadcast": lambda T: T.arange(6).view(2, 3)[T.tensor([[0], [1]]),
                                                               T.tensor([0, 1, 2, 0])],
    "index_select-list": lambda T: T.ones(3).index_select(0, [0, 1]),
}


@pytest.mark.parametrize("name", SHAPES)
def test_size_and_shape_rows(name, torch):
    same_as_torch(SHAPES[name], torch)


# ------------------------------------------------------------------------- generator state

def test_generator_state_is_a_byte_tensor_that_restores_the_draws():
    g = tapegrad.Generator().manual_seed(5)
    state = g.get_state()
    assert isinstance(state, tapegrad.Tensor)
    assert state.dtype is tapegrad.uint8 and state.dim() == 1
    first = tapegrad.rand(4, generator=g)
    g.manual_seed(9)
    g.set_state(state)
    assert tapegrad.equal(first, tapegrad.rand(4, generator=g))
    assert g.initial_seed() == 5


def test_generator_set_state_refuses_other_objects():
    with pytest.raises(TypeError, match="expected a torch.ByteTensor"):
        tapegrad.Generator().set_state([1, 2, 3])


LAYOUT_CASES = {
    "sum": lambda x: x.sum(1),
    "mean_keepdim": lambda x: x.mean(1, keepdim=True),
    "amax": lambda x: x.amax(1),
    "std": lambda x: x.std(1),
    "prod": lambda x: x.prod(2),
    "logsumexp": lambda x: x.logsumexp(1),
    "norm": lambda x: x.norm(dim=1),
    "sum_of_two_dims": lambda x: x.sum((0, 1)),
    "softmax": lambda x: x.softmax(1),
    "log_softmax": lambda x: x.log_softmax(-1),
}


@pytest.mark.parametrize("name", LAYOUT_CASES)
def test_reductions_of_any_layout_are_contiguous(name):
    """ATen allocates reductions (and softmax) C-contiguous; numpy keeps the input's stride
    order, where ``.view`` of the result would then be refused."""
    x = tapegrad.arange(120.0).reshape(2, 3, 4, 5).permute(0, 2, 3, 1)
    result = LAYOUT_CASES[name](x)
    assert result.is_contiguous()
    assert result.view(-1).shape == (result.numel(),)


@pytest.mark.parametrize("name", LAYOUT_CASES)
def test_reduction_strides_are_pytorchs(name, torch):
    def strides(T):
        x = T.arange(120.0).reshape(2, 3, 4, 5).permute(0, 2, 3, 1)
        return LAYOUT_CASES[name](x).stride()
    assert strides(tapegrad) == strides(torch)
