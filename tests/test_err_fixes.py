"""Beginners' mistakes that must fail (or work) exactly as in PyTorch: loss arguments of the wrong
type, dtype or shape, normalisation layers given the wrong sizes or too little data, adaptive
pooling to one value, and sampler arguments.

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); the values are also checked against analytic results and finite differences.
"""
import math

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as F
from tapegrad.autograd import gradcheck

from same_as_torch import assert_same, outcome


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def probabilities(lib, shape):
    return lib.linspace(0.1, 0.9, math.prod(shape)).reshape(shape)


# ------------------------------------------------------------ BCE weight, soft margin broadcast

@pytest.mark.parametrize("target_shape, weight_shape", [
    ((2, 3), (3,)), ((2, 3), (2, 1)), ((2, 3), (2,)), ((2, 3), (3, 1)), ((2, 3), (1, 2, 3)),
    ((2, 1), (3,)), ((3,), (2, 1)), ((2, 3), ())])
def test_bce_weight_is_expanded_then_multiplied_in_place(torch, target_shape, weight_shape):
    """A weight broadcasting with the target to a larger shape is refused by the in-place
    multiplication (``output with shape ... doesn't match the broadcast shape ...``)."""
    def case(lib):
        p = probabilities(lib, target_shape)
        return lib.nn.functional.binary_cross_entropy(p, p.flip(0), weight=lib.ones(weight_shape))
    assert_same(case, torch)


def test_bce_weight_broadcast_value():
    p = probabilities(tapegrad, (2, 3))
    t = p.flip(1)
    weight = tapegrad.tensor([[1.0], [3.0]])
    pointwise = -(t * p.log() + (1 - t) * (1 - p).log())
    expected = (pointwise * weight).mean()
    got = F.binary_cross_entropy(p, t, weight=weight)
    np.testing.assert_allclose(got.item(), expected.item(), rtol=1e-6)


@pytest.mark.parametrize("input_shape, target_shape", [
    ((6, 1), (6,)), ((6,), (6, 1)), ((6, 1), (1,)), ((6,), (5,)), ((2, 3), (3,))])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_soft_margin_target_broadcasts_into_input_only(torch, input_shape, target_shape,
                                                       reduction):
    def case(lib):
        x = lib.linspace(-1, 1, math.prod(input_shape)).reshape(input_shape)
        target = lib.ones(target_shape)
        return lib.nn.functional.soft_margin_loss(x, target, reduction=reduction)
    assert_same(case, torch)


def test_soft_margin_broadcast_target_value_and_gradient():
    x = tapegrad.linspace(-1, 1, 6, dtype=tapegrad.float64).reshape(2, 3).requires_grad_()
    target = tapegrad.tensor([1.0, -1.0, 1.0], dtype=tapegrad.float64)
    got = F.soft_margin_loss(x, target, reduction="none")
    expected = np.log1p(np.exp(-target.numpy() * x.detach().numpy()))
    np.testing.assert_allclose(got.detach().numpy(), expected, rtol=1e-12)
    assert gradcheck(lambda v: F.soft_margin_loss(v, target), (x,))


# ------------------------------------------------------------------ margin losses' target dtype

@pytest.mark.parametrize("target, weight", [
    ([0.0, 5.0], None), ([0, 1], "int32"), ([0.0, 1.0], [1.0, 1.0]), ([0, 5], None),
    ([0.0, 1.0, 2.0], None)])
def test_multi_margin_target_must_be_long(torch, target, weight):
    def case(lib):
        labels = (lib.tensor(target, dtype=lib.int32) if weight == "int32" else
                  lib.tensor(target))
        return lib.nn.functional.multi_margin_loss(
            lib.arange(6.0).reshape(2, 3), labels,
            weight=None if weight in (None, "int32") else lib.tensor(weight))
    assert_same(case, torch)


def test_multilabel_margin_target_must_be_long(torch):
    assert_same(lambda lib: lib.nn.functional.multilabel_margin_loss(
        lib.arange(6.0).reshape(2, 3), lib.zeros(2, 3, dtype=lib.int32)), torch)


# ------------------------------------------------------------------ loss arguments not tensors

@pytest.mark.parametrize("name, arguments", [
    ("mse_loss", ("x", 0.5)), ("mse_loss", (0.5, "x")), ("l1_loss", ("x", [1.0])),
    ("smooth_l1_loss", ("x", None)), ("huber_loss", ("x", 1)), ("binary_cross_entropy", ("p", 0.5)),
    ("binary_cross_entropy_with_logits", ("x", 0.5)), ("kl_div", ("x", 0.5)),
    ("kl_div", (0.5, "x")), ("nll_loss", ("x", [0, 1])), ("cross_entropy", ("x", [0, 1])),
    ("cross_entropy", ([1.0], "x")), ("soft_margin_loss", ("x", 1.0)),
    ("poisson_nll_loss", ("x", 1.0)), ("hinge_embedding_loss", ("x", 1.0)),
    ("cosine_embedding_loss", ("x", "x", 1.0)), ("cosine_embedding_loss", ("x", 1, "x")),
    ("nll_loss", ("x", np.zeros(2, dtype=np.int64)))])
def test_loss_arguments_that_are_not_tensors(torch, name, arguments):
    def case(lib):
        x = lib.tensor([[0.2, 0.8], [0.6, 0.4]])
        given = [x if a in ("x", "p") else a for a in arguments]
        return getattr(lib.nn.functional, name)(*given)
    assert_same(case, torch)


def test_reduction_is_checked_before_argument_types(torch):
    for name in ("poisson_nll_loss", "kl_div", "cross_entropy", "soft_margin_loss",
                 "hinge_embedding_loss"):
        assert_same(lambda lib: getattr(lib.nn.functional, name)(
            lib.ones(2), 1.0, reduction="bad"), torch)


def test_loss_argument_messages_without_torch():
    x = tapegrad.ones(2)
    assert outcome(tapegrad, lambda lib: F.kl_div(x, 0.5, reduction="sum")) == (
        "TypeError", "kl_div(): argument 'target' (position 2) must be Tensor, not float")
    assert outcome(tapegrad, lambda lib: F.mse_loss(x, 0.5)) == (
        "AttributeError", "'float' object has no attribute 'size'")


# ---------------------------------------------------------------------------- group norm checks

@pytest.mark.parametrize("shape, groups, weight, bias", [
    ((2, 6, 4), 2, (3,), None), ((2, 6, 4), 2, None, (3,)), ((2, 6, 4), 2, (6, 1), None),
    ((2, 6, 4), 2, (6,), (6, 1)), ((2, 6, 4), 2, (6,), (3,)), ((2, 6), 2, (2, 3), None),
    ((2, 6, 4), -2, None, None), ((2, 6, 4), 0, None, None), ((2, 6, 4), 4, None, None),
    ((1, 2), 2, None, None), ((1, 3, 1, 1), 3, None, None), ((1, 4), 2, None, None),
    ((0, 6, 4), 2, None, None)])
def test_group_norm_checks(torch, shape, groups, weight, bias):
    def case(lib):
        x = lib.linspace(-1, 1, math.prod(shape)).reshape(shape)
        w = None if weight is None else lib.ones(weight)
        b = None if bias is None else lib.zeros(bias)
        return lib.nn.functional.group_norm(x, groups, w, b)
    assert_same(case, torch)


def test_group_norm_module_with_wrong_channel_count(torch):
    assert_same(lambda lib: lib.nn.GroupNorm(2, 8)(lib.ones(2, 6, 4)), torch)


def test_group_norm_values():
    x = tapegrad.linspace(-1, 2, 24, dtype=tapegrad.float64).reshape(2, 6, 2)
    got = F.group_norm(x, 3).numpy()
    grouped = x.numpy().reshape(2, 3, -1)
    expected = (grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(
        grouped.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(got, expected.reshape(2, 6, 2), rtol=1e-10)


# ------------------------------------------------------------------- batch norm without values

@pytest.mark.parametrize("shape", [(0, 3), (0, 3, 1), (1, 3, 0), (1, 3), (1, 3, 1)])
def test_batch_norm_training_needs_more_than_one_value(torch, shape):
    assert_same(lambda lib: lib.nn.functional.batch_norm(
        lib.ones(shape), None, None, training=True), torch)


def test_batch_norm_of_an_empty_batch_keeps_statistics(torch):
    def case(lib):
        bn = lib.nn.BatchNorm1d(3)
        out = bn(lib.ones(0, 3))
        out.sum().backward()
        return (out.shape, type(out.grad_fn).__name__, bn.running_mean, bn.running_var,
                int(bn.num_batches_tracked), bn.weight.grad, bn.bias.grad)
    assert outcome(tapegrad, case)[:2] == ((0, 3), "AddBackward0")
    assert_same(case, torch)


def test_empty_batch_norm_without_affine_parameters():
    out = F.batch_norm(tapegrad.ones(0, 3), tapegrad.zeros(3), tapegrad.ones(3))
    assert out.shape == (0, 3) and out.grad_fn is None


# ------------------------------------------------------------ adaptive average pooling to ones

@pytest.mark.parametrize("shape, output_size", [
    ((4,), 1), ((3, 4), 1), ((3, 4), (1, 1)), ((1, 1, 1, 2, 2), 1), ((3, 4), 2),
    ((4,), (None, 2)), ((4, 4), (1, 1, 1))])
def test_adaptive_avg_pool2d_to_one_is_a_mean_of_any_rank(torch, shape, output_size):
    assert_same(lambda lib: lib.nn.functional.adaptive_avg_pool2d(
        lib.arange(float(math.prod(shape))).reshape(shape), output_size), torch)


def test_adaptive_avg_pool_to_one_values():
    x = tapegrad.arange(12.0).reshape(3, 4)
    assert F.adaptive_avg_pool2d(x, 1).tolist() == [[5.5]]
    assert F.adaptive_avg_pool3d(tapegrad.ones(2, 3, 4), 1).tolist() == [[[1.0]]]


# ---------------------------------------------------------------------------------- samplers

@pytest.mark.parametrize("replacement", ["yes", 1, None])
def test_random_sampler_replacement_must_be_bool(torch, replacement):
    assert_same(lambda lib: lib.utils.data.RandomSampler(range(3), replacement=replacement),
                torch)


def test_random_sampler_replacement_message():
    with pytest.raises(TypeError, match="replacement should be a boolean value, but got "
                                        "replacement=1"):
        tapegrad.utils.data.RandomSampler(range(3), replacement=1)


# ------------------------------------------------------------- layers given lists, numpy arrays

@pytest.mark.parametrize("name, make", [
    ("linear", lambda lib, x: lib.nn.functional.linear([1.0, 2.0, 3.0], x)),
    ("linear weight", lambda lib, x: lib.nn.functional.linear(x, [[1.0, 2.0, 3.0]])),
    ("linear bias", lambda lib, x: lib.nn.functional.linear(x, x, 1.0)),
    ("Linear numpy", lambda lib, x: lib.nn.Linear(3, 2)(x.numpy())),
    ("embedding weight", lambda lib, x: lib.nn.functional.embedding(lib.tensor([0]), [[1.0]])),
    ("Embedding int", lambda lib, x: lib.nn.Embedding(3, 2)(1)),
    ("embedding padding list", lambda lib, x: lib.nn.functional.embedding([1], x, padding_idx=0)),
    ("embedding max_norm list", lambda lib, x: lib.nn.functional.embedding([1], x, max_norm=1.0)),
    ("embedding padding 0, weight list",
     lambda lib, x: lib.nn.functional.embedding(lib.tensor([0]), [[1.0]], padding_idx=0)),
    ("embedding padding 1, weight list",
     lambda lib, x: lib.nn.functional.embedding(lib.tensor([0]), [[1.0]], padding_idx=1)),
    ("embedding padding -1", lambda lib, x: lib.nn.functional.embedding(lib.tensor([1]), x,
                                                                         padding_idx=-1)),
    ("embedding padding 2", lambda lib, x: lib.nn.functional.embedding(lib.tensor([1]), x,
                                                                        padding_idx=2)),
    ("bilinear", lambda lib, x: lib.nn.functional.bilinear([1.0], x, lib.ones(2, 3, 3))),
    ("bilinear bias", lambda lib, x: lib.nn.functional.bilinear(x, x, lib.ones(2, 3, 3), 1.0)),
    ("layer_norm", lambda lib, x: lib.nn.functional.layer_norm([1.0, 2.0], (2,))),
    ("relu", lambda lib, x: lib.nn.ReLU()(x.numpy())),
    ("relu_", lambda lib, x: lib.nn.functional.relu([1.0], inplace=True)),
    ("dropout eval", lambda lib, x: lib.nn.Dropout().eval()([1.0])),
    ("cosine_embedding None", lambda lib, x: lib.nn.functional.cosine_embedding_loss(x, x, None)),
])
def test_layers_refuse_what_is_not_a_tensor(torch, name, make):
    assert_same(lambda lib: make(lib, lib.ones(2, 3)), torch)


def test_linear_with_optional_bias_none_still_works():
    x = tapegrad.ones(2, 3)
    assert F.linear(x, tapegrad.ones(4, 3), None).tolist() == [[3.0] * 4] * 2
    with pytest.raises(TypeError, match=r"^linear\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not list$"):
        F.linear([1.0, 2.0, 3.0], x)


# -------------------------------------------------------- add/sub alpha, operands of the wrong type

@pytest.mark.parametrize("make", [
    lambda lib, t, i, b: lib.add(i, i, alpha=0.5), lambda lib, t, i, b: lib.add(i, t, alpha=0.5),
    lambda lib, t, i, b: lib.add(i, 2, alpha=0.5), lambda lib, t, i, b: lib.add(i, 2.0, alpha=0.5),
    lambda lib, t, i, b: lib.sub(i, i, alpha=0.5), lambda lib, t, i, b: lib.add(t, t, alpha=True),
    lambda lib, t, i, b: lib.add(b, b, alpha=True), lambda lib, t, i, b: lib.add(i, i, alpha=False),
    lambda lib, t, i, b: lib.add(b, b, alpha=2), lambda lib, t, i, b: lib.sub(t, t, alpha=True),
    lambda lib, t, i, b: i.clone().add_(i, alpha=0.5),
    lambda lib, t, i, b: t.clone().sub_(t, alpha=True),
    lambda lib, t, i, b: i.add(i, alpha=0.5), lambda lib, t, i, b: lib.add(i, i, alpha=1.0),
    lambda lib, t, i, b: lib.add(i, i, alpha=np.float64(0.5)),
    lambda lib, t, i, b: lib.add(t, t, alpha="a"),
    lambda lib, t, i, b: lib.add(t, t, alpha=np.float64(0.5)).dtype == lib.float32,
    lambda lib, t, i, b: t.clone().add_(t, alpha=0.5)])
def test_alpha_is_checked_against_the_result_dtype(torch, make):
    assert_same(lambda lib: make(lib, lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1, 2, 3]),
                                 lib.tensor([True, False, True])), torch)


def test_bool_sum_with_integer_alpha_stays_bool():
    b = tapegrad.tensor([True, False])
    out = tapegrad.add(b, b, alpha=2)
    assert out.dtype == tapegrad.bool and out.tolist() == [True, False]
    assert tapegrad.add(tapegrad.ones(2), tapegrad.ones(2), alpha=np.float64(0.5)).dtype == \
        tapegrad.float32


@pytest.mark.parametrize("function", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("operands", [("t", [1, 2, 3]), ([1, 2, 3], "t"), ("t", None),
                                      ("t", "a"), ("t", "array"), ("array", "t"), (1, 2)])
def test_binary_functions_take_tensors_or_numbers(torch, function, operands):
    def case(lib):
        t = lib.tensor([1.0, 2.0, 3.0])
        given = [t if o == "t" else np.ones(3) if o == "array" else o for o in operands]
        return getattr(lib, function)(*given)
    assert_same(case, torch)


def test_operators_with_lists_still_defer():
    t = tapegrad.ones(3)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'Tensor' and "
                                        r"'list'"):
        t + [1, 2, 3]
    assert (t * 2).tolist() == [2.0, 2.0, 2.0]


# --------------------------------------------- layer sizes computed with ``/`` (floats), and such

@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.Linear(4, 16 / 2), lambda lib: lib.nn.Linear(4.0, 2),
    lambda lib: lib.nn.Bilinear(2, 3, 8 / 2), lambda lib: lib.nn.Conv2d(3, 16 / 2, 3),
    lambda lib: lib.nn.Conv2d(3.0, 16, 3), lambda lib: lib.nn.Conv2d(3, 16, 3.0),
    lambda lib: lib.nn.Conv2d(1, 1, "3"), lambda lib: lib.nn.Conv1d(1, 1, 3.0),
    lambda lib: lib.nn.ConvTranspose2d(1, 2 / 1, 3), lambda lib: lib.nn.Embedding(10.0, 3),
    lambda lib: lib.nn.Embedding(10, 6 / 2),
    lambda lib: repr(lib.nn.Conv2d(3, 16, 3, stride=2.0)),
    lambda lib: repr(lib.nn.Conv2d(1, 1, (3, 3, 3))),
    lambda lib: lib.nn.Conv2d(1, 1, (3, 3, 3))(lib.ones(1, 1, 4, 4)),
    lambda lib: lib.empty((8.0, 4)), lambda lib: lib.zeros([None, 2]),
    lambda lib: lib.randn((2.0, 3)), lambda lib: lib.ones((3, 2.5, 1)),
    lambda lib: lib.ones(2).reshape((2.0,))])
def test_float_sizes_are_refused_as_pytorch_refuses_them(torch, make):
    assert_same(make, torch)


def test_layers_still_build_from_int_like_sizes():
    assert tapegrad.nn.Linear(np.int64(4), 2).weight.shape == (2, 4)
    conv = tapegrad.nn.Conv2d(2, 4, [3, 1], stride=(2, 1))
    assert conv.weight.shape == (4, 2, 3, 1) and conv.kernel_size == (3, 1)
    assert conv(tapegrad.ones(1, 2, 5, 5)).shape == (1, 4, 2, 5)


# ------------------------------------------------------------------ F.linear's paths and checks

LINEAR_CASES = [
    ((2, 3), (3,), None), ((2, 3), (3,), (1,)), ((2, 3), (3,), ()), ((3,), (3,), None),
    ((3,), (3,), ()), ((2, 2, 3), (3,), None), ((2, 2, 3), (3,), (1,)), ((2, 3), (4,), None),
    ((2, 2, 3), (4, 3), (1, 4)), ((2, 2, 3), (4, 3), (2, 4)), ((2, 2, 3), (4, 3), (1, 1, 4)),
    ((2, 2, 3), (4, 3), (2, 2, 4)), ((2, 2, 3), (4, 3), (4, 1)), ((2, 2, 3), (4, 3), (1, 1)),
    ((2, 2, 3), (4, 3), (2, 1)), ((2, 2, 3), (4, 3), (3, 2, 2, 4)), ((2, 2, 2, 3), (4, 3), (2, 1, 4)),
    ((2, 2, 2, 3), (4, 3), (3, 4)), ((3,), (4, 3), (1, 4)), ((3,), (4, 3), (2, 4)),
    ((0, 2, 3), (4, 3), (4,)), ((2, 3), (4, 3), (3, 4)), ((2, 3), (4, 2), (3, 4))]


@pytest.mark.parametrize("input_shape, weight_shape, bias_shape", LINEAR_CASES)
@pytest.mark.parametrize("contiguous", [True, False])
def test_linear_paths_match_pytorch(torch, input_shape, weight_shape, bias_shape, contiguous):
    """Which node ends the graph (AddmmBackward0, ViewBackward0 of a fold, AddBackward0, MvBackward0)
    and which message a misfit bias or weight gets."""
    def case(lib):
        x = lib.linspace(-1, 1, math.prod(input_shape)).reshape(input_shape)
        if not contiguous:
            if x.dim() < 2:
                return "skip"
            x = x.transpose(0, -2).contiguous().transpose(0, -2)
        w = lib.linspace(0, 1, math.prod(weight_shape)).reshape(weight_shape).requires_grad_()
        b = None if bias_shape is None else lib.ones(bias_shape)
        out = lib.nn.functional.linear(x, w, b)
        return out, out.grad_fn.name()
    assert_same(case, torch)


def test_linear_fold_values_and_gradient():
    x = tapegrad.linspace(-1, 1, 12, dtype=tapegrad.float64).reshape(2, 2, 3)
    w = tapegrad.linspace(0, 1, 12, dtype=tapegrad.float64).reshape(4, 3).requires_grad_()
    b = tapegrad.ones(1, 4, dtype=tapegrad.float64).requires_grad_()
    out = F.linear(x, w, b)
    assert out.grad_fn.name() == "ViewBackward0"
    np.testing.assert_allclose(out.detach().numpy(), x.numpy() @ w.detach().numpy().T + 1)
    assert gradcheck(lambda w_, b_: F.linear(x, w_, b_), (w, b))


@pytest.mark.parametrize("operands", [("t", [2, 2, 2]), ("t", None), ([2], "t"), (2, 3), ("t", 2),
                                      (2, "t"), ("t", "2"), (np.float64(2), "t")])
def test_pow_overloads(torch, operands):
    def case(lib):
        t = lib.tensor([1.0, 2.0, 3.0])
        return lib.pow(*[t if o == "t" else o for o in operands])
    assert_same(case, torch)
