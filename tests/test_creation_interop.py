"""Gradient signs of selecting backward rules, tensors from Python and numpy data, numpy operands
of operators, and the float32 accuracy of softmax / logsumexp: each against PyTorch."""
import math
import warnings
from collections import deque

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as TF

torch = pytest.importorskip("torch")


def _signed(array):
    """Values with the sign of zeros made visible (``-0.0`` != ``0.0`` here)."""
    return [(float(v), math.copysign(1.0, v)) for v in np.asarray(array).ravel()]


# ------------------------------------------------------------------------- gradient zeros are +0

SELECTING = {
    "relu": lambda lib, x: lib.relu(x),
    "relu_": lambda lib, x: (x * 1).relu_(),
    "clamp": lambda lib, x: x.clamp(0, 1),
    "clamp_tensor": lambda lib, x: x.clamp(lib.zeros(4), lib.ones(4)),
    "clamp_min": lambda lib, x: x.clamp_min(0),
    "clamp_max": lambda lib, x: x.clamp_max(1),
    "clamp_min_tensor": lambda lib, x: x.clamp_min(lib.zeros(4)),
    "clamp_max_tensor": lambda lib, x: x.clamp_max(lib.ones(4)),
    "clip": lambda lib, x: lib.clip(x, 0, 1),
    "threshold": lambda lib, x: (TF if lib is tg else torch.nn.functional).threshold(x, 0.6, 0.0),
    "hardsigmoid": lambda lib, x: (TF if lib is tg else torch.nn.functional).hardsigmoid(x * 3),
    "hardswish": lambda lib, x: (TF if lib is tg else torch.nn.functional).hardswish(x * 3),
    "maximum": lambda lib, x: lib.maximum(x, lib.zeros(4)),
    "minimum": lambda lib, x: lib.minimum(x, lib.ones(4)),
    "max": lambda lib, x: x.max(),
    "min": lambda lib, x: x.min(),
    "max_dim": lambda lib, x: x.reshape(2, 2).max(1)[0],
    "median": lambda lib, x: x.median(),
    "nanmedian": lambda lib, x: x.nanmedian(),
    "amax": lambda lib, x: x.reshape(2, 2).amax(1),  # a mask multiply in PyTorch: -0 there
}


@pytest.mark.parametrize("name", SELECTING)
def test_unselected_gradients_are_torchs_zeros(name):
    grads = []
    for lib in (tg, torch):
        x = lib.tensor([-1.0, 2.0, 0.5, 3.0], requires_grad=True)
        y = SELECTING[name](lib, x)
        y.backward(-lib.ones_like(y))
        grads.append((_signed(x.grad.numpy()), type(y.grad_fn).__name__))
    assert grads[0] == grads[1]


@pytest.mark.parametrize("case", ["maximum", "minimum", "max", "max_dim", "clamp", "relu"])
def test_nan_inputs_and_infinite_gradients_route_as_in_torch(case):
    grads = []
    for lib in (tg, torch):
        a = lib.tensor([float("nan"), 1.0, 2.0], requires_grad=True)
        b = lib.tensor([1.0, float("nan"), 2.0])
        y = {"maximum": lambda: lib.maximum(a, b), "minimum": lambda: lib.minimum(a, b),
             "max": lambda: a.max(), "max_dim": lambda: a.max(0)[0],
             "clamp": lambda: a.clamp(0, 1), "relu": lambda: lib.relu(a - 1.5)}[case]()
        y.backward(lib.full_like(y, float("inf")) if case == "relu" else -lib.ones_like(y))
        grads.append(_signed(a.grad.numpy()))
    np.testing.assert_equal(grads[0], grads[1])


def test_selecting_rules_stay_differentiable():
    for f in (lambda x: tg.relu(x) ** 2, lambda x: x.clamp(-0.5, 0.5) ** 2,
              lambda x: tg.maximum(x, x.flip(0)) ** 2, lambda x: x.max() ** 2,
              lambda x: TF.hardswish(x * 3)):
        x = tg.tensor([-1.1, 0.25, 0.7, -0.3], dtype=tg.float64, requires_grad=True)
        assert tg.autograd.gradcheck(f, (x,))
        assert tg.autograd.gradgradcheck(f, (x,))


@pytest.mark.parametrize("method", ["clamp_min", "clamp_max"])
def test_tensor_bound_clamps_gradcheck_and_record_torchs_node(method):
    x = tg.tensor([[0.3, -0.2, 0.9]], dtype=tg.float64, requires_grad=True)
    bound = tg.tensor([[0.1], [0.5]], dtype=tg.float64, requires_grad=True)
    f = lambda x, b: getattr(x, method)(b) ** 2  # noqa: E731
    assert tg.autograd.gradcheck(f, (x, bound)) and tg.autograd.gradgradcheck(f, (x, bound))
    node = type(getattr(x, method)(bound).grad_fn).__name__
    assert node == type(getattr(torch.zeros(1, requires_grad=True), method)(
        torch.zeros(1)).grad_fn).__name__ == f"{method.title().replace('_', '')}Backward1"


def test_relu_backward_keeps_the_gradient_bits():
    g = np.array([-0.0, np.inf, -np.inf, np.nan, -2.5], np.float32)
    x = tg.tensor([1.0, -1.0, 1.0, -1.0, 1.0], requires_grad=True)
    tg.relu(x).backward(tg.from_numpy(g))
    assert _signed(x.grad.numpy()) == _signed([-0.0, 0.0, -np.inf, 0.0, -2.5])


# ---------------------------------------------------------------------- tensors from Python data

OBS = np.arange(4.0)

CREATION = {
    "ragged_arrays": lambda lib: lib.tensor([np.zeros(3), np.zeros(2)]),
    "legacy_array_and_dict": lambda lib: lib.FloatTensor((OBS, {})),
    "Tensor_array_and_dict": lambda lib: lib.Tensor((OBS, {})),
    "array_and_dict": lambda lib: lib.tensor((OBS, {})),
    "array_then_short_list": lambda lib: lib.tensor([np.zeros(3), [1, 2]]),
    "array_then_list": lambda lib: lib.tensor([np.zeros(2), [1, 2]]),
    "list_then_array": lambda lib: lib.tensor([[1, 2], np.zeros(2)]),
    "deque": lambda lib: lib.tensor(deque([1.0, 0.5, -1.0])),
    "as_tensor_deque": lambda lib: lib.as_tensor(deque([True, False])),
    "deques": lambda lib: lib.tensor([deque([1, 2]), deque([3, 4])]),
    "zero_dim_arrays": lambda lib: lib.tensor([np.array(1.0), np.array(0.5)]),
    "long_from_numpy_bools": lambda lib: lib.LongTensor([np.bool_(True), np.bool_(False)]),
    "long_from_numpy_float32": lambda lib: lib.LongTensor([np.float32(1.5)]),
    "float_from_numpy_bools": lambda lib: lib.FloatTensor([np.bool_(True), np.bool_(False)]),
    "bool_from_mixed": lambda lib: lib.BoolTensor([np.bool_(True), 1]),
    "float_with_none": lambda lib: lib.FloatTensor([1, None]),
    "number_then_list": lambda lib: lib.FloatTensor([1.0, [2.0]]),
    "list_then_number": lambda lib: lib.LongTensor([[2], 1]),
    "number_then_array": lambda lib: lib.tensor([1.0, np.zeros(2)]),
    "array_then_number": lambda lib: lib.tensor([np.zeros(2), 1.0]),
    "empty_then_ragged": lambda lib: lib.tensor([[], [1]]),
    "strings_in_array": lambda lib: lib.tensor([np.array(["a"])]),
    "bytes": lambda lib: lib.tensor(b"ab"),
    "legacy_string": lambda lib: lib.FloatTensor("ab"),
    "stack_arrays": lambda lib: lib.stack([np.zeros(2), np.ones(2)]),
    "from_numpy_scalar": lambda lib: lib.from_numpy(np.float64(1.0)),
    "legacy_numpy_scalar": lambda lib: lib.Tensor(np.float32(2.0)),
    "custom_sequence": lambda lib: lib.tensor([_Pair(), _Pair()]),
    # plain Python numbers (read on a fast path): the same dtypes, values and refusals
    "bools_and_ints": lambda lib: lib.tensor([True, 2, False]),
    "bools_and_floats": lambda lib: lib.tensor([[True, 2.5], (0, False)]),
    "floats_beyond_float32": lambda lib: lib.tensor([[1.0, 1e39], [-1e39, 2]]),
    "nan_first_then_huge": lambda lib: lib.tensor([float("nan"), 1e300])[1:],
    "int_beyond_int64": lambda lib: lib.tensor([1, 2 ** 63]),
    "rows_of_other_lengths": lambda lib: lib.tensor([[1.0, 2.0], [3.0]]),
    "number_then_row": lambda lib: lib.tensor([1.0, [2.0, 3.0]]),
}


class _Pair:
    def __getitem__(self, i):
        return [1.0, 2.0][i]

    def __len__(self):
        return 2


def _outcome(make, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            t = make(lib)
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            return type(error).__name__, str(error)
    return str(t.dtype), t.tolist()


@pytest.mark.parametrize("name", CREATION)
def test_tensor_from_python_data_as_torch(name):
    assert _outcome(CREATION[name], tg) == _outcome(CREATION[name], torch)


def test_list_of_arrays_warns_when_torch_does():
    tg.ops.creation._warn_list_of_arrays_is_slow.cache_clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="Could not infer dtype of dict"):
            tg.tensor((OBS, {}))  # the dtype is inferred before anything is stored
        assert not caught
        with pytest.raises(ValueError, match="expected sequence of length 4 at dim 1"):
            tg.FloatTensor((OBS, {}))
    assert [str(w.message)[:45] for w in caught] == [
        "Creating a tensor from a list of numpy.ndarra"]
    assert caught[0].filename == __file__


# ----------------------------------------------------------------------- numpy operands of operators

ARRAY = np.array([0.1, 0.2], np.float32)

OPERATORS = {
    "array_plus": lambda lib, t: ARRAY + t,
    "scalar_array_plus": lambda lib, t: np.array(0.5) + t,
    "array_minus": lambda lib, t: ARRAY - t,
    "array_times": lambda lib, t: ARRAY * t,
    "array_over": lambda lib, t: ARRAY / t,
    "array_greater": lambda lib, t: ARRAY > t,
    "array_equal": lambda lib, t: ARRAY == t,
    "array_power": lambda lib, t: ARRAY ** t,
    "times_zero_dim_array": lambda lib, t: t * np.array(0.5),
    "times_array": lambda lib, t: t * np.array([0.5]),
    "times_numpy_scalar": lambda lib, t: t * np.float64(0.5),
    "numpy_scalar_times": lambda lib, t: np.float64(0.5) * t,
    "plus_int_array": lambda lib, t: t + np.array([1, 2]),
    "over_zero_dim_array": lambda lib, t: t / np.array(2.0),
    "greater_array": lambda lib, t: t > np.array(0.5),
    "ufunc": lambda lib, t: np.add(ARRAY, t),
    "ufunc_bool": lambda lib, t: np.isnan(t),
    "requires_grad_times_array": lambda lib, t: t.requires_grad_() * np.array(2.0),
    "array_times_requires_grad": lambda lib, t: ARRAY * t.requires_grad_(),
    "int_arrays": lambda lib, t: np.array([1, 2]) + lib.tensor([1, 2]),
}


@pytest.mark.parametrize("name", OPERATORS)
def test_numpy_operands_as_torch(name):
    outcomes = []
    for lib in (tg, torch):
        t = lib.tensor([1.0, 1.0])
        try:
            r = OPERATORS[name](lib, t)
            outcomes.append((type(r).__name__, str(getattr(r, "dtype", "")),
                             np.asarray(r.detach() if hasattr(r, "detach") else r).tolist()))
        except Exception as error:  # noqa: BLE001
            outcomes.append((type(error).__name__, str(error).replace("'Tensor'", "T")))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("function", ["mean", "sum"])
def test_numpy_reductions_call_the_methods_with_numpys_keywords(function):
    messages = []
    for lib in (tg, torch):
        with pytest.raises(TypeError) as caught:
            getattr(np, function)(lib.tensor([1.0, 2.0]))
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == f"{function}() got an unexpected keyword argument 'axis'"
    assert tg.tensor([1.0, 2.0]).sum(axis=0).item() == 3.0  # numpy's name alone is an alias


def test_tensor_method_refuses_an_array_operand():
    t = tg.tensor([1.0, 1.0])
    assert t.__add__(ARRAY) is NotImplemented and t.__rsub__(ARRAY) is NotImplemented
    assert t.__iadd__(ARRAY) is NotImplemented
    s = t
    s += ARRAY  # numpy's sum, wrapped as a new tensor; t is untouched
    assert s is not t and s.tolist() == pytest.approx([1.1, 1.2]) and t.tolist() == [1.0, 1.0]
    assert t.__eq__(np.array([1.0, 0.0])).tolist() == [True, False]


# ------------------------------------------------------------------- float32 softmax accuracy

def test_small_softmax_family_agrees_with_torch_bit_for_bit():
    logits = [[1., 2., 3.], [.5, .5, .5], [-1., 0., 10.], [2., -3., .1]]
    probs = tg.distributions.Categorical(logits=tg.tensor(logits)).probs
    expected = torch.distributions.Categorical(logits=torch.tensor(logits)).probs
    assert str(probs.sum(-1)) == str(expected.sum(-1)) == "tensor([1., 1., 1., 1.])"
    np.testing.assert_array_equal(probs.numpy(), expected.numpy())
    x = [1.0, 2.0, 3.0]
    assert tg.logsumexp(tg.tensor(x), 0).item() == torch.logsumexp(torch.tensor(x), 0).item()
    x = [2.0, -3.0, 0.1]
    np.testing.assert_array_equal(tg.softmax(tg.tensor(x), 0).numpy(),
                                  torch.softmax(torch.tensor(x), 0).numpy())


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp"])
def test_softmax_family_mostly_agrees_with_torch_in_float32(op):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((64, 7)) * 3).astype(np.float32)
    ours = getattr(tg, op)(tg.from_numpy(a), 1).numpy()
    theirs = getattr(torch, op)(torch.from_numpy(a), 1).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
    assert (ours == theirs).mean() > 0.7


@pytest.mark.parametrize("size, stride, dtype", [((2, 3), (1, 2), "float32"),
                                                 ((2, 0, 3), (3, 3, 1), "float64"),
                                                 ((4,), (2,), "int64"), ((), (), "float32")])
def test_empty_strided_lays_out_its_own_storage_as_pytorch(size, stride, dtype):
    ours = tg.empty_strided(size, stride, dtype=getattr(tg, dtype))
    theirs = torch.empty_strided(size, stride, dtype=getattr(torch, dtype))
    assert (tuple(ours.shape), ours.stride(), ours.is_contiguous(), ours._base is None) == \
        (tuple(theirs.shape), theirs.stride(), theirs.is_contiguous(), theirs._base is None)
    assert str(ours.dtype) == str(theirs.dtype)  # tapegrad prints dtypes as torch.float32


def test_empty_strided_and_normal_check_like_pytorch():
    for lib in (tg, torch):
        with pytest.raises(RuntimeError, match=r"dimensionality of sizes \(2\) must match "
                                               r"dimensionality of strides \(1\)"):
            lib.empty_strided((2, 3), (1,))
        drawn = lib.normal(0.0, 1.0, (2, 3), dtype=lib.float64, requires_grad=True, device="cpu")
        assert drawn.dtype == lib.float64 and drawn.requires_grad and drawn.is_leaf
    assert tg.normal(0.0, 1.0, (2,), device="meta").is_meta
