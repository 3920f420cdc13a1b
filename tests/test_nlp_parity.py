"""NLP idioms: reductions over a squeezed batch of one (0-d tensors), float16 attention and
vocabulary softmaxes, saturated logsigmoid/softplus gradients in negative sampling, and class
weights of the wrong dtype in cross_entropy; compared with PyTorch where it is installed, plus
independent truths (analytic values, float64 references) that run without it."""
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as F

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def scores(lib, shape, scale=3.0):
    """Deterministic logits, spread enough that float16 rounding shows."""
    n = int(np.prod(shape))
    return (lib.arange(n, dtype=lib.float32).reshape(shape) * 0.73).sin() * scale


# -------------------------------------------------------------- 0-d tensors over dim 0 / -1

ZERO_D_CASES = [
    lambda t: t.tensor(1.5).max(0),
    lambda t: t.tensor(1.5).min(-1),
    lambda t: t.tensor(1.5).max(0, keepdim=True),
    lambda t: t.max(t.tensor(-2.0), dim=0).indices,
    lambda t: t.tensor(1.5).max(1),
    lambda t: t.tensor(1.5).softmax(0),
    lambda t: t.tensor(1.5).log_softmax(-1),
    lambda t: t.logsumexp(t.tensor(1.5), 0),
    lambda t: t.logsumexp(t.tensor(1.5), 0, keepdim=True),
    lambda t: t.tensor(1.5).softmax(1),
]


@pytest.mark.parametrize("case", ZERO_D_CASES)
def test_zero_d_reductions_match_torch(case, torch):
    assert_same(case, torch)


def test_zero_d_is_a_one_element_vector():
    """A 0-d tensor reduces over its one implicit element: itself, index 0, probability 1."""
    s = tapegrad.tensor(0.7, requires_grad=True)
    values, indices = s.max(0)
    assert values.shape == () and values.item() == pytest.approx(0.7) and indices.item() == 0
    assert values.grad_fn.name() == "MaxBackward0"
    assert s.softmax(0).item() == 1.0 and s.log_softmax(0).item() == 0.0
    assert s.logsumexp(0).item() == pytest.approx(0.7)
    (values + s.min(0).values + s.logsumexp(0) + s.softmax(0)).backward()
    assert s.grad.item() == pytest.approx(3.0)  # softmax of one element is constant


# -------------------------------------------------------------------- float16 softmax family

HALF_SHAPES = [((4, 10), -1), ((4, 10), 0), ((2, 3, 9), 1), ((2, 3, 9), 2), ((3, 200), -1)]


@pytest.mark.parametrize("shape, dim", HALF_SHAPES)
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_float16_softmax_bitwise_as_torch(name, shape, dim, torch):
    ours = getattr(F, name)(scores(tapegrad, shape).half(), dim)
    theirs = getattr(torch.nn.functional, name)(scores(torch, shape).half(), dim)
    assert ours.dtype == tapegrad.float16
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("shape, dim", HALF_SHAPES)
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_float16_softmax_backward_as_torch(name, shape, dim, torch):
    def grad(lib):
        x = scores(lib, shape).half().requires_grad_()
        out = getattr(lib.nn.functional, name)(x, dim)
        (out * scores(lib, shape, 1.0).half().flip(0)).sum().backward()
        return x.grad.numpy()
    np.testing.assert_allclose(grad(tapegrad).astype(np.float32), grad(torch).astype(np.float32),
                               rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_float16_softmax_is_the_float32_one_rounded(name):
    """Accumulated in float32: within about one float16 ulp of the float32 result (the last-dim
    log_softmax rounds its log-sum to float16 too); float16 throughout would drift by several."""
    x = scores(tapegrad, (3, 40)).half()
    half = getattr(F, name)(x, -1).numpy().astype(np.float32)
    wide = getattr(F, name)(x.float(), -1).numpy()
    ulp = np.spacing(np.abs(wide).astype(np.float16)).astype(np.float32)
    assert np.all(np.abs(half - wide) <= 1.5 * ulp)


# ------------------------------------------------------- saturated logsigmoid / softplus grads

SATURATED = [-120.0, -95.0, -60.0, -20.0, 0.0, 20.0, 60.0, 90.0, 120.0]


def _grad(lib, fn, values, dtype):
    x = lib.tensor(values, dtype=dtype, requires_grad=True)
    fn(lib, x).sum().backward()
    return x.grad.numpy()


@pytest.mark.parametrize("fn", [
    lambda t, x: t.nn.functional.logsigmoid(x),
    lambda t, x: t.nn.functional.logsigmoid(-x),
    lambda t, x: t.nn.functional.softplus(x),
    lambda t, x: t.nn.functional.softplus(x, beta=0.5, threshold=30),
])
def test_saturated_gradients_keep_their_tiny_values_as_torch(fn, torch):
    ours = _grad(tapegrad, fn, SATURATED, tapegrad.float32)
    theirs = _grad(torch, fn, SATURATED, torch.float32)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=0)  # no absolute slack: 1e-39 counts


def test_logsigmoid_gradient_is_sigmoid_of_minus_x_in_float64():
    values = np.array([-700.0, -30.0, -1.0, 0.0, 1.0, 30.0, 300.0, 700.0])
    grad = _grad(tapegrad, lambda t, x: F.logsigmoid(x), values.tolist(), tapegrad.float64)
    expected = np.exp(-np.logaddexp(0.0, values))  # sigmoid(-x), computed in log space
    np.testing.assert_allclose(grad, expected, rtol=1e-14, atol=0)
    assert grad[-1] > 0  # exp(-700) is a normal float64, not 0


def test_softplus_gradient_is_sigmoid_below_threshold():
    values = [-100.0, -3.0, 0.0, 3.0, 19.0, 25.0]
    grad = _grad(tapegrad, lambda t, x: F.softplus(x), values, tapegrad.float64)
    expected = np.where(np.array(values) > 20, 1.0, 1 / (1 + np.exp(-np.array(values))))
    np.testing.assert_allclose(grad, expected, rtol=1e-14, atol=0)


def test_no_numpy_warnings_at_the_extremes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = tapegrad.tensor([-1000.0, -90.0, 0.0, 1000.0], requires_grad=True)
        (F.logsigmoid(x).sum() + F.softplus(x).sum()).backward()
        assert F.silu(x.detach())[:2].tolist() == [-0.0, -0.0]
        assert tapegrad.logsumexp(tapegrad.full((2, 3), float("-inf")), 1).tolist() == [
            float("-inf"), float("-inf")]


# -------------------------------------------------------------------- class weight dtype

WEIGHT_CASES = [
    lambda t: t.nn.functional.cross_entropy(scores(t, (3, 4)), t.tensor([0, 1, 3]),
                                            weight=t.ones(4, dtype=t.float64)),
    lambda t: t.nn.functional.cross_entropy(scores(t, (3, 4)), t.tensor([0, 1, 3]),
                                            weight=t.ones(4, dtype=t.float64), label_smoothing=0.1),
    lambda t: t.nn.functional.nll_loss(scores(t, (3, 4)).double(), t.tensor([0, 1, 3]),
                                       weight=t.ones(4)),
    lambda t: t.nn.functional.nll_loss(scores(t, (3, 4)), t.tensor([0, 1, 3]),
                                       weight=t.ones(4, dtype=t.long)),
    lambda t: t.nn.functional.nll_loss(scores(t, (3, 4)).half(), t.tensor([0, 1, 3]),
                                       weight=t.ones(4)),
    lambda t: t.nn.functional.cross_entropy(scores(t, (1, 4, 3)), t.tensor([[0, 1, 3]]),
                                            weight=t.ones(4, dtype=t.float64)),
    lambda t: t.nn.functional.cross_entropy(scores(t, (1, 4, 3, 1)), t.tensor([[[0], [1], [3]]]),
                                            weight=t.ones(4, dtype=t.float64)),
    lambda t: t.nn.CrossEntropyLoss(weight=t.ones(4, dtype=t.float64))(
        scores(t, (3, 4)).double(), t.tensor([0, 1, 3])),
    lambda t: t.nn.functional.cross_entropy(scores(t, (3, 4)), scores(t, (3, 4)).softmax(1),
                                            weight=t.ones(4, dtype=t.float64)),
]


@pytest.mark.parametrize("case", WEIGHT_CASES)
def test_class_weight_dtype_as_torch(case, torch):
    assert_same(case, torch)


def test_class_weight_of_another_dtype_is_refused():
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        F.cross_entropy(scores(tapegrad, (3, 4)), tapegrad.tensor([0, 1, 3]),
                        weight=tapegrad.ones(4, dtype=tapegrad.float64))
    loss = F.cross_entropy(scores(tapegrad, (3, 4)), tapegrad.tensor([0, 1, 3]),
                           weight=tapegrad.tensor([1.0, 2.0, 1.0, 0.5]))
    log_probs = F.log_softmax(scores(tapegrad, (3, 4)), 1).numpy()
    picked = -log_probs[[0, 1, 2], [0, 1, 3]] * np.array([1.0, 2.0, 0.5])
    assert loss.item() == pytest.approx(picked.sum() / 3.5, rel=1e-6)


# ------------------------------------------------------------------------------------ ReLU6

def test_relu6_is_a_hardtanh_from_0_to_6():
    m = tapegrad.nn.ReLU6(inplace=True)
    assert isinstance(m, tapegrad.nn.Hardtanh)
    assert (m.min_val, m.max_val, m.inplace) == (0.0, 6.0, True)
    assert repr(m) == "ReLU6(inplace=True)" and repr(tapegrad.nn.ReLU6()) == "ReLU6()"
    x = tapegrad.linspace(-3, 9, 7, requires_grad=True)
    y = tapegrad.nn.ReLU6()(x)
    assert y.tolist() == [0.0, 0.0, 1.0, 3.0, 5.0, 6.0, 6.0]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0]


def test_relu6_attributes_as_torch(torch):
    assert_same(lambda t: (vars(t.nn.ReLU6())["min_val"], vars(t.nn.ReLU6())["max_val"],
                           t.nn.ReLU6()(t.linspace(-3, 9, 7))), torch)


# ------------------------------------------------------------------------- dim arguments

DIM_CASES = [
    lambda t: t.logsumexp(t.ones(2, 3)),                       # scipy's default is all axes
    lambda t: t.ones(2, 3).logsumexp(),
    lambda t: t.logsumexp(t.ones(2, 3), 1.0),
    lambda t: t.logsumexp(t.ones(2, 3), [0, 1]),
    lambda t: t.nn.functional.softmax(t.ones(2, 3), (1,)),
    lambda t: t.nn.functional.log_softmax(t.ones(2, 3), [1]),
    lambda t: t.nn.functional.softmax(t.ones(2, 3), 1.0),
    lambda t: t.ones(2, 3).softmax((1,)),
    lambda t: t.nn.functional.softmax(t.arange(6.0).reshape(2, 3), np.int64(1)),
    lambda t: t.arange(6.0).reshape(2, 3).max(np.int64(1)),
    lambda t: t.arange(6.0).reshape(2, 3).amax(np.int64(0)),
    lambda t: t.arange(6.0).reshape(2, 3).logsumexp(np.int64(-1)),
    lambda t: t.arange(6.0).reshape(2, 3).sum(np.int32(0)),
]


@pytest.mark.parametrize("case", DIM_CASES)
def test_dim_arguments_as_torch(case, torch):
    assert_same(case, torch)


def test_numpy_integer_dims_are_ints():
    x = tapegrad.arange(6.0).reshape(2, 3)
    assert x.max(np.int64(1)).indices.tolist() == [2, 2]
    assert x.amin(np.int64(1)).tolist() == [0.0, 3.0]
    assert F.softmax(x, np.int64(0)).sum(0).tolist() == pytest.approx([1.0, 1.0, 1.0])
    with pytest.raises(TypeError, match='missing 1 required positional arguments: "dim"'):
        tapegrad.logsumexp(x)
