"""Making tensors and reading them back: factories, memory sharing, random numbers, metadata.

Deterministic factories are compared with literal values and, when torch is installed, with
PyTorch's output; random factories are checked for shape, dtype, range and seeded reproducibility
(tapegrad's generator is numpy's PCG64, so its numbers are not PyTorch's).
"""
import numpy as np
import pytest

import tapegrad


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def assert_tensor(t, values, dtype):
    assert t.dtype is dtype
    np.testing.assert_array_equal(t.numpy(), np.asarray(values, dtype=dtype.numpy))


# ---------------------------------------------------------------------- from data, and sharing

def test_tensor_copies_its_data():
    source = np.array([1.0, 2.0], dtype=np.float32)
    t = tapegrad.tensor(source)
    source[0] = 100.0
    assert t.tolist() == [1.0, 2.0]


def test_tensor_of_a_tensor_warns_and_copies():
    original = tapegrad.tensor([1.0, 2.0])
    with pytest.warns(UserWarning, match="sourceTensor.detach"):
        copy = tapegrad.tensor(original)
    original.add_(1)
    assert copy.tolist() == [1.0, 2.0]


def test_tensor_dtype_argument_converts():
    assert_tensor(tapegrad.tensor([1.7, 2.2], dtype=tapegrad.int64), [1, 2], tapegrad.int64)
    assert_tensor(tapegrad.tensor([1, 0], dtype=tapegrad.bool), [True, False], tapegrad.bool)


def test_as_tensor_shares_memory_with_an_array_of_the_same_dtype():
    source = np.array([1.0, 2.0])
    t = tapegrad.as_tensor(source)
    source[0] = 7.0
    assert t.dtype is tapegrad.float64 and t[0].item() == 7.0


def test_as_tensor_copies_when_the_dtype_changes():
    source = np.array([1.0, 2.0])
    t = tapegrad.as_tensor(source, dtype=tapegrad.float32)
    source[0] = 7.0
    assert t.tolist() == [1.0, 2.0]


def test_as_tensor_of_a_tensor_is_the_tensor():
    t = tapegrad.ones(2)
    assert tapegrad.as_tensor(t) is t
    assert tapegrad.as_tensor(t, dtype=tapegrad.float64).dtype is tapegrad.float64


def test_from_numpy_shares_memory_both_ways():
    source = np.zeros(3, dtype=np.int32)
    t = tapegrad.from_numpy(source)
    source[1] = 5
    t[2] = 9
    assert t.tolist() == [0, 5, 9]
    assert source.tolist() == [0, 5, 9]
    assert t.dtype is tapegrad.int32


def test_from_numpy_refuses_other_objects_and_dtypes():
    with pytest.raises(TypeError, match=r"expected np.ndarray \(got list\)"):
        tapegrad.from_numpy([1, 2])
    with pytest.raises(TypeError, match="can't convert np.ndarray of type numpy.str_"):
        tapegrad.from_numpy(np.array(["a"]))


def test_from_numpy_message_is_pytorchs(torch):
    with pytest.raises(TypeError) as ours:
        tapegrad.from_numpy([1, 2])
    with pytest.raises(TypeError) as theirs:
        torch.from_numpy([1, 2])
    assert str(ours.value) == str(theirs.value)


def test_numpy_shares_memory_and_refuses_tensors_that_require_grad():
    t = tapegrad.zeros(2)
    t.numpy()[0] = 3.0
    assert t[0].item() == 3.0
    x = tapegrad.zeros(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        x.numpy()
    assert x.detach().numpy().tolist() == [0.0, 0.0]


# ----------------------------------------------------------------------- filled and ranges

FACTORIES = {  # name -> (fn(T), expected values, expected dtype name)
    "zeros": (lambda T: T.zeros(2, 3), np.zeros((2, 3)), "float32"),
    "zeros-tuple": (lambda T: T.zeros((2, 3), dtype=T.int64), np.zeros((2, 3)), "int64"),
    "zeros-list": (lambda T: T.zeros([1, 2]), np.zeros((1, 2)), "float32"),
    "zeros-size": (lambda T: T.zeros(T.ones(2, 3).shape), np.zeros((2, 3)), "float32"),
    "zeros-0d": (lambda T: T.zeros(()), np.zeros(()), "float32"),
    "zeros-empty-dim": (lambda T: T.zeros(2, 0), np.zeros((2, 0)), "float32"),
    "ones": (lambda T: T.ones(3, dtype=T.float64), np.ones(3), "float64"),
    "ones-bool": (lambda T: T.ones(2, dtype=T.bool), [True, True], "bool"),
    "full-float": (lambda T: T.full((2, 2), 1.5), np.full((2, 2), 1.5), "float32"),
    "full-int": (lambda T: T.full((2,), 3), [3, 3], "int64"),
    "full-bool": (lambda T: T.full((2,), True), [True, True], "bool"),
    "full-dtype": (lambda T: T.full([2], 7, dtype=T.float64), [7.0, 7.0], "float64"),
    "full-truncates": (lambda T: T.full((2,), 1.7, dtype=T.int64), [1, 1], "int64"),
    "arange": (lambda T: T.arange(5), np.arange(5), "int64"),
    "arange-start": (lambda T: T.arange(2, 5), [2, 3, 4], "int64"),
    "arange-float-end": (lambda T: T.arange(2.5), [0.0, 1.0, 2.0], "float32"),
    "arange-float-step": (lambda T: T.arange(0, 1, 0.25), [0, 0.25, 0.5, 0.75], "float32"),
    "arange-negative-step": (lambda T: T.arange(0, -3, -1), [0, -1, -2], "int64"),
    "arange-dtype": (lambda T: T.arange(3, dtype=T.float64), [0.0, 1.0, 2.0], "float64"),
    "arange-tensor-end": (lambda T: T.arange(T.tensor(3)), [0, 1, 2], "int64"),
    "arange-empty": (lambda T: T.arange(0), np.zeros(0), "int64"),
    "linspace": (lambda T: T.linspace(0, 1, 5), [0, 0.25, 0.5, 0.75, 1.0], "float32"),
    "linspace-one": (lambda T: T.linspace(-1, 1, 1), [-1.0], "float32"),
    "linspace-int": (lambda T: T.linspace(0, 10, 4, dtype=T.int64), [0, 3, 6, 10], "int64"),
    "linspace-empty": (lambda T: T.linspace(0, 1, 0), np.zeros(0), "float32"),
    "eye": (lambda T: T.eye(3), np.eye(3), "float32"),
    "eye-rect": (lambda T: T.eye(2, 3), np.eye(2, 3), "float32"),
    "eye-int": (lambda T: T.eye(2, dtype=T.int64), np.eye(2), "int64"),
    "empty-shape": (lambda T: T.empty(2, 3).fill_(4.0), np.full((2, 3), 4.0), "float32"),
    "empty-int": (lambda T: T.empty((2,), dtype=T.int32).zero_(), [0, 0], "int32"),
    "zeros_like": (lambda T: T.zeros_like(T.tensor([[1, 2]])), [[0, 0]], "int64"),
    "ones_like-dtype": (lambda T: T.ones_like(T.tensor([1, 2]), dtype=T.float64), [1, 1],
                        "float64"),
    "full_like": (lambda T: T.full_like(T.tensor([1, 2]), 2.7), [2, 2], "int64"),
    "empty_like": (lambda T: T.empty_like(T.ones(2, 2, dtype=T.float64)).fill_(1), np.ones((2, 2)),
                   "float64"),
    "scalar_tensor": (lambda T: T.scalar_tensor(3), np.array(3.0), "float32"),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_factory_values_and_dtype(name):
    fn, values, dtype_name = FACTORIES[name]
    t = fn(tapegrad)
    assert t.shape == np.shape(values)
    assert_tensor(t, values, getattr(tapegrad, dtype_name))


@pytest.mark.parametrize("name", FACTORIES)
def test_factory_matches_torch(name, torch):
    fn, _, _ = FACTORIES[name]
    ours, theirs = fn(tapegrad), fn(torch)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("args", [(0, 10, 0.3), (-3.1, 7.7, 0.13), (1, 2, 0.001), (5, 0, -0.7)])
@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_float_arange_matches_torch_to_the_last_bits(args, dtype_name, torch):
    """PyTorch computes ``start + i * step`` in double; numpy's float32 arange drifts."""
    ours = tapegrad.arange(*args, dtype=getattr(tapegrad, dtype_name)).numpy()
    theirs = torch.arange(*args, dtype=getattr(torch, dtype_name)).numpy()
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=4 * np.finfo(ours.dtype).eps, atol=1e-14)


def test_float32_arange_is_accurate():
    values = tapegrad.arange(1, 2, 0.001).numpy()
    exact = 1 + np.arange(values.size) * 0.001
    np.testing.assert_allclose(values, exact, rtol=np.finfo(np.float32).eps)


@pytest.mark.parametrize("args", [(-3.1, 7.7, 13), (0, 1, 1000), (1e-3, 5, 77), (2, -7.3, 10)])
def test_linspace_matches_torch(args, torch):
    np.testing.assert_allclose(tapegrad.linspace(*args).numpy(), torch.linspace(*args).numpy(),
                               rtol=4e-7, atol=1e-6)


def test_requires_grad_argument_makes_a_leaf():
    for t in (tapegrad.zeros(2, requires_grad=True), tapegrad.tensor([1.0], requires_grad=True),
              tapegrad.ones_like(tapegrad.ones(2), requires_grad=True),
              tapegrad.randn(2, requires_grad=True),
              tapegrad.linspace(0, 1, 3, requires_grad=True)):
        assert t.requires_grad and t.is_leaf and t.grad_fn is None


# ----------------------------------------------------------------------------------- random

def test_rand_is_uniform_in_unit_interval():
    t = tapegrad.rand(10000)
    assert t.dtype is tapegrad.float32 and t.shape == (10000,)
    values = t.numpy()
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.02


def test_randn_is_standard_normal():
    values = tapegrad.randn(100, 100, dtype=tapegrad.float64).numpy()
    assert values.dtype == np.float64
    assert abs(values.mean()) < 0.05 and abs(values.std() - 1) < 0.05


def test_randint_range_shape_and_dtype():
    t = tapegrad.randint(3, 10, (1000,))
    assert t.dtype is tapegrad.int64 and t.shape == (1000,)
    assert t.min().item() >= 3 and t.max().item() <= 9
    assert set(t.tolist()) == set(range(3, 10))
    assert tapegrad.randint(5, (2, 3)).shape == (2, 3)
    assert tapegrad.randint(0, 2, (3,), dtype=tapegrad.float32).dtype is tapegrad.float32


def test_randperm_is_a_permutation():
    t = tapegrad.randperm(20)
    assert t.dtype is tapegrad.int64
    assert sorted(t.tolist()) == list(range(20))


@pytest.mark.parametrize("make", [
    lambda: tapegrad.rand(5), lambda: tapegrad.randn(2, 3), lambda: tapegrad.randint(0, 100, (6,)),
    lambda: tapegrad.randperm(10), lambda: tapegrad.rand_like(tapegrad.zeros(3)),
    lambda: tapegrad.randn_like(tapegrad.zeros(3)), lambda: tapegrad.normal(0.0, 1.0, (4,)),
], ids=["rand", "randn", "randint", "randperm", "rand_like", "randn_like", "normal"])
def test_manual_seed_reproduces_the_sequence(make):
    tapegrad.manual_seed(1234)
    first, second = make().tolist(), make().tolist()
    tapegrad.manual_seed(1234)
    assert make().tolist() == first and make().tolist() == second
    assert first != second
    tapegrad.manual_seed(4321)
    assert make().tolist() != first


def test_a_generator_argument_has_its_own_stream():
    gen = tapegrad.Generator().manual_seed(7)
    a = tapegrad.rand(4, generator=gen).tolist()
    tapegrad.rand(10)  # the default generator advances; gen does not
    gen.manual_seed(7)
    assert tapegrad.rand(4, generator=gen).tolist() == a


def test_rng_state_round_trips():
    state = tapegrad.get_rng_state()
    a = tapegrad.randn(3).tolist()
    tapegrad.set_rng_state(state)
    assert tapegrad.randn(3).tolist() == a


def test_like_factories_follow_the_input():
    x = tapegrad.zeros(2, 3, dtype=tapegrad.float64)
    for make in (tapegrad.rand_like, tapegrad.randn_like, tapegrad.ones_like, tapegrad.zeros_like,
                 tapegrad.empty_like):
        out = make(x)
        assert out.shape == (2, 3) and out.dtype is tapegrad.float64
    assert tapegrad.randint_like(x, 5).dtype is tapegrad.float64
    assert tapegrad.rand_like(x, dtype=tapegrad.float32).dtype is tapegrad.float32


# ------------------------------------------------------------------------ reading back

def test_item_returns_python_numbers():
    assert tapegrad.tensor(2.5).item() == 2.5 and type(tapegrad.tensor(2.5).item()) is float
    assert type(tapegrad.tensor([3]).item()) is int
    assert tapegrad.tensor([[True]]).item() is True


def test_item_of_many_elements_is_refused():
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted"):
        tapegrad.ones(2).item()


def test_tolist_nests_python_numbers():
    assert tapegrad.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert tapegrad.tensor(1.5).tolist() == 1.5
    assert tapegrad.zeros(0).tolist() == []
    assert type(tapegrad.tensor([1.0]).tolist()[0]) is float


def test_metadata():
    t = tapegrad.zeros(2, 3, 4)
    assert t.shape == (2, 3, 4) and repr(t.shape) == "torch.Size([2, 3, 4])"
    assert t.size() == (2, 3, 4) and t.size(1) == 3 and t.size(-1) == 4
    assert t.dim() == 3 and t.ndim == 3 and t.numel() == 24
    assert tapegrad.tensor(5).dim() == 0 and tapegrad.tensor(5).numel() == 1
    assert t.shape.numel() == 24


def test_T_reverses_dimensions():
    t = tapegrad.arange(6).reshape(2, 3)
    assert t.T.shape == (3, 2)
    assert t.T.tolist() == [[0, 3], [1, 4], [2, 5]]
    assert tapegrad.arange(3).T.tolist() == [0, 1, 2]


def test_size_dimension_out_of_range():
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of "
                                         r"\[-2, 1\], but got 2\)"):
        tapegrad.zeros(2, 3).size(2)


# ------------------------------------------------------------------------ bad arguments

BAD_CREATION = {  # name -> fn(T): each raises PyTorch's exception and message
    "zeros-negative": lambda T: T.zeros(-1),
    "ones-negative": lambda T: T.ones(2, -1),
    "empty-negative": lambda T: T.empty(-1),
    "full-negative": lambda T: T.full((-1,), 2.0),
    "rand-negative": lambda T: T.rand(-1),
    "randn-negative": lambda T: T.randn(-2),
    "randperm-negative": lambda T: T.randperm(-1),
    "zeros-float-size": lambda T: T.zeros(2, 3.0),
    "eye-negative": lambda T: T.eye(-1),
    "eye-negative-m": lambda T: T.eye(2, -1),
    "arange-zero-step": lambda T: T.arange(0, 5, 0),
    "arange-wrong-sign": lambda T: T.arange(0, 5, -1),
    "arange-infinite": lambda T: T.arange(0, float("inf")),
    "arange-int-step-truncates-to-zero": lambda T: T.arange(0, 1, 0.3, dtype=T.int64),
    "linspace-negative": lambda T: T.linspace(0, 1, -1),
    "randint-empty-range": lambda T: T.randint(5, 2, (3,)),
    "rand-int-dtype": lambda T: T.rand(2, dtype=T.int64),
    "randn-int-dtype": lambda T: T.randn(2, dtype=T.int64),
    "tensor-ragged": lambda T: T.tensor([[1, 2], [3]]),
    "tensor-ragged-deep": lambda T: T.tensor([[[1], [2]], [[3], [4, 5]]]),
    "tensor-number-then-list": lambda T: T.tensor([[1, 2], 3]),
    "tensor-list-after-number": lambda T: T.tensor([1, [2, 3]]),
    "tensor-float-then-list": lambda T: T.tensor([1.5, [2, 3]]),
    "arange-bool": lambda T: T.arange(0, 2, 1, dtype=T.bool),
    "tensor-string": lambda T: T.tensor("a"),
    "tensor-none": lambda T: T.tensor(None),
    "tensor-object": lambda T: T.tensor(object()),
    "item-many": lambda T: T.ones(3).item(),
}


def _raised(fn, T):
    with pytest.raises(Exception) as info:
        fn(T)
    return type(info.value).__name__, str(info.value)


@pytest.mark.parametrize("name", BAD_CREATION)
def test_bad_creation_raises_pytorchs_error(name, torch):
    assert _raised(BAD_CREATION[name], tapegrad) == _raised(BAD_CREATION[name], torch)


@pytest.mark.parametrize("name, expected", [
    ("zeros-negative", "zeros: Dimension size must be non-negative."),
    ("ones-negative", "Trying to create tensor with negative dimension -1: [2, -1]"),
    ("arange-wrong-sign", "upper bound and lower bound inconsistent with step sign"),
    ("randint-empty-range", "random_ expects 'from' to be less than 'to', but got from=5 >= to=2"),
    ("tensor-ragged", "expected sequence of length 2 at dim 1 (got 1)"),
])
def test_bad_creation_messages(name, expected):
    assert _raised(BAD_CREATION[name], tapegrad)[1] == expected


def test_explicit_float64_dtype_keeps_full_precision():
    """Python floats go straight to the requested dtype, never through float32 first."""
    assert tapegrad.tensor([0.1], dtype=tapegrad.float64).item() == 0.1
    assert tapegrad.tensor(0.1, dtype=tapegrad.float64).item() == 0.1
    assert tapegrad.as_tensor([0.1], dtype=tapegrad.float64).item() == 0.1
    a = tapegrad.tensor([0.1], dtype=tapegrad.float64)
    a.mul_(0.7)  # the Python number is taken at the tensor's precision as well
    assert a.item() == 0.1 * 0.7
