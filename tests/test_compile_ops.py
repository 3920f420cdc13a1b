"""Every primitive of the op table, compiled: forward values and gradients equal eager's.

One sample program per primitive (``SAMPLES``); a primitive without a sample fails
``test_every_primitive_has_a_sample`` by name. The samples run in a few compiled functions of
about 25 samples each (Numba's compile time grows faster than linearly with kernel size), each
compiled once for the module: every sample has its own input leaves, so each primitive's outputs
and input gradients are compared on their own. A primitive
with no lowering still compiles (numpy runs it inside the kernel) and ``explain()`` names it.
"""
import functools

import numpy as np
import pytest

import tapegrad
from tapegrad.compile import CompileWarning
from tapegrad.nn import functional as F
from tapegrad.ops import PRIMITIVES

from compile_helpers import assert_close, fresh_leaves, kernel_cache  # noqa: F401

# Some samples produce inf and NaN on purpose (isnan, isinf, 1/0): numpy's warnings are expected.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_rng = np.random.default_rng(1234)


def f(*shape, low=-2.0, high=2.0):
    """A float32 leaf that requires grad, values in [low, high)."""
    array = _rng.uniform(low, high, shape).astype(np.float32)
    return tapegrad.Tensor._make(array).requires_grad_(True)


def positive(*shape):
    return f(*shape, low=0.5, high=2.0)


def data(*shape):
    return tapegrad.Tensor._make(_rng.uniform(-2, 2, shape).astype(np.float32))


def ints(high, *shape):
    return tapegrad.Tensor._make(_rng.integers(0, high, shape).astype(np.int64))


def nonleaf(t):
    """A copy that is not a leaf, so in-place operations on it may be recorded."""
    return t * 1


def _inplace(method, *args):
    def run(a, *others):
        c = nonleaf(a)
        getattr(c, method)(*args, *others)
        return c
    return run


def _filled(name):
    """The random-fill primitive ``name`` applied with fixed draws (uniform in [0, 1))."""
    draws = _rng.uniform(0.0, 1.0, (3, 4))

    def run(a, *others):
        return tapegrad.ops.inplace.apply_inplace(PRIMITIVES[name], nonleaf(a), others,
                                                  {"values": draws})
    return run


def _setitem(key):
    def run(a, value):
        c = nonleaf(a)
        c[key] = value
        return c
    return run


T = tapegrad
# name -> (inputs, function): the function applies the primitive through the public API.
SAMPLES = {
    "expand": ([f(1, 4)], lambda a: a.expand(3, 4) * 1),
    "sum_to": ([f(3, 4), f(4)], lambda a, b: a * b),
    "add": ([f(3, 4), f(3, 4)], lambda a, b: a + b),
    "sub": ([f(3, 4), f(4)], lambda a, b: a - b),
    "add_alpha": ([f(3, 4), f(3, 4)], lambda a, b: T.add(a, b, alpha=2.0)),
    "sub_alpha": ([f(3, 4), f(3, 4)], lambda a, b: T.sub(a, b, alpha=0.5)),
    "rsub_tensor": ([f(3, 4), f(3, 4)], lambda a, b: T.rsub(a, b, alpha=2)),
    "mul": ([f(3, 4), f(3, 1)], lambda a, b: a * b),
    "div": ([f(3, 4), positive(4)], lambda a, b: a / b),
    "pow": ([positive(3, 4), f(3, 4)], lambda a, b: a ** b),
    "maximum": ([f(3, 4), f(3, 4)], T.maximum),
    "minimum": ([f(3, 4), f(4)], T.minimum),
    "where": ([f(3, 4), f(3, 4), data(3, 4)], lambda a, b, c: T.where(c > 0, a, b)),
    "neg": ([f(3, 4)], lambda a: -a),
    "rsub": ([f(3, 4)], lambda a: 2.0 - a),
    "pow_scalar": ([f(3, 4)], lambda a: a ** 3),
    "pow_scalar_base": ([f(3, 4)], lambda a: 2.0 ** a),
    "exp": ([f(3, 4)], T.exp),
    "log": ([positive(3, 4)], T.log),
    "sqrt": ([positive(3, 4)], T.sqrt),
    "reciprocal": ([positive(3, 4)], T.reciprocal),
    "abs": ([f(3, 4)], T.abs),
    "sin": ([f(3, 4)], T.sin),
    "cos": ([f(3, 4)], T.cos),
    "tanh": ([f(3, 4, low=-6, high=6)], T.tanh),
    "sigmoid": ([f(3, 4, low=-12, high=12)], T.sigmoid),
    "relu": ([f(3, 4)], T.relu),
    # the activations' backward functions, compiled where the backward graph uses them
    "tanh_backward": ([f(3, 4, low=-3, high=3)], T.tanh),
    "sigmoid_backward": ([f(3, 4, low=-6, high=6)], T.sigmoid),
    "threshold_backward": ([f(3, 4)], T.relu),
    "clamp": ([f(3, 4)], lambda a: a.clamp(-0.5, 0.5)),
    "clamp_min": ([f(3, 4)], lambda a: T.clamp_min(a, 0.25)),
    "clamp_max": ([f(3, 4)], lambda a: T.clamp_max(a, 0.25)),
    "clamp_min_tensor": ([f(3, 4), data(4)], lambda a, low: T.clamp_min(a, low)),
    "clamp_max_tensor": ([f(3, 4), data(3, 1)], lambda a, high: T.clamp_max(a, high)),
    "clamp_tensor": ([f(3, 4), data(4), data(3, 4)],
                     lambda a, low, high: T.clamp(a, min=low, max=low + high.abs())),
    "to_dtype": ([f(3, 4)], lambda a: a.double() * 2),
    "clone": ([f(3, 4)], lambda a: a.clone()),
    "copy": ([f(3, 4), f(3, 4)], _inplace("copy_")),
    "fill": ([f(3, 4)], lambda a: _inplace("fill_", 2.5)(a) * a),
    "fill_tensor": ([f(3, 4), f()], lambda a, v: nonleaf(a).fill_(v)),
    "zero": ([f(3, 4)], lambda a: _inplace("zero_")(a) + a),
    "eq": ([data(3, 4)], lambda a: (a.round() == 1).float()),
    "ne": ([data(3, 4)], lambda a: a.round() != 0),
    "lt": ([f(3, 4), f(3, 4)], lambda a, b: a < b),
    "le": ([f(3, 4), f(3, 4)], lambda a, b: a <= b),
    "gt": ([f(3, 4)], lambda a: a * (a > 0)),
    "ge": ([f(3, 4), f(3, 4)], lambda a, b: a >= b),
    "logical_and": ([data(3, 4)], lambda a: T.logical_and(a > 0, a < 1)),
    "logical_or": ([data(3, 4)], lambda a: T.logical_or(a > 1, a < -1)),
    "logical_xor": ([data(3, 4)], lambda a: T.logical_xor(a > 0, a > 1)),
    "logical_not": ([data(3, 4)], lambda a: T.logical_not(a > 0)),
    "bitwise_and": ([data(3, 4)], lambda a: a * ((a > 0) & (a < 1))),
    "bitwise_or": ([ints(9, 3, 4), ints(9, 3, 4)], lambda a, b: a | b),
    "bitwise_xor": ([data(3, 4)], lambda a: (a > 0) ^ (a > 1)),
    "bitwise_not": ([data(3, 4), ints(9, 3, 4)], lambda a, b: (~(a > 0), ~b)),
    "bitwise_left_shift": ([ints(9, 3, 4)], lambda a: a << 2),
    "bitwise_right_shift": ([ints(99, 3, 4)], lambda a: a >> 1),
    "sign": ([f(3, 4)], lambda a: a.sign() * a),
    "angle": ([f(3, 4)], lambda a: a.angle() * a),
    "floor": ([f(3, 4)], lambda a: a.floor()),
    "ceil": ([f(3, 4)], lambda a: a.ceil()),
    "round": ([f(3, 4)], lambda a: a.round()),
    "round_decimals": ([f(3, 4)], lambda a: a.round(decimals=1) * a),
    "isnan": ([data(3, 4)], lambda a: (a.log()).isnan()),
    "isinf": ([data(3, 4)], lambda a: (a.round() / a.round()).isinf()),
    "isfinite": ([data(3, 4)], lambda a: (1 / a.round()).isfinite()),
    "floor_divide": ([data(3, 4), data(3, 4).abs() + 0.5], lambda a, b: a // b),  # no derivative
    "floor_div": ([f(3, 4), positive(3, 4)], lambda a, b: T.div(a, b, rounding_mode="floor")),
    "remainder_of_number": ([data(3, 4).abs() + 0.5], lambda b: 1.5 % b),
    "remainder": ([f(3, 4), positive(3, 4)], lambda a, b: a % b),
    "remainder_scalar": ([f(3, 4)], lambda a: a % 1.5),
    "trunc_div": ([f(3, 4), positive(3, 4)], lambda a, b: T.div(a, b, rounding_mode="trunc")),
    "sum_all": ([f(3, 4)], lambda a: a.sum()),
    "sum": ([f(3, 4, 5)], lambda a: a.sum((0, 2), keepdim=True)),
    "mean_all": ([f(3, 4)], lambda a: a.mean()),
    "mean": ([f(3, 4)], lambda a: a.mean(0)),
    "max_all": ([f(3, 4)], lambda a: a.max()),
    "min_all": ([f(3, 4)], lambda a: a.min()),
    "amax": ([f(3, 4)], lambda a: a.amax(1, keepdim=True)),
    "amin": ([f(3, 4, 2)], lambda a: a.amin((0, 2))),
    "aminmax": ([f(3, 4)], lambda a: tuple(T.aminmax(a, dim=1))),
    "max_dim": ([f(3, 4)], lambda a: tuple(a.max(1))),
    "min_dim": ([f(3, 4)], lambda a: tuple(a.min(0, keepdim=True))),
    "var": ([f(3, 4)], lambda a: a.var(1)),
    "var_mean": ([f(3, 4)], lambda a: T.var_mean(a, 1)),
    "std_mean": ([f(3, 4)], lambda a: T.std_mean(a)),
    "nansum_all": ([f(3, 4)], lambda a: a.nansum()),
    "nansum": ([f(3, 4)], lambda a: a.nansum(1)),
    "std": ([f(3, 4)], lambda a: a.std()),
    "logsumexp": ([f(3, 4)], lambda a: T.logsumexp(a, 1)),
    "argmax": ([f(3, 4)], lambda a: (a.argmax(1), a.argmax(), a.argmax(0, keepdim=True))),
    "argmin": ([f(3, 4)], lambda a: (a.argmin(1), a.argmin(keepdim=True))),
    "all": ([f(3, 4)], lambda a: ((a > 0).all(1), (a > -9).all())),
    "any": ([f(3, 4)], lambda a: ((a > 0).any(0, keepdim=True), (a > 9).any())),
    "count_nonzero": ([f(3, 4)], lambda a: (T.count_nonzero(a > 0, 1), T.count_nonzero(a))),
    "softmax": ([f(3, 4)], lambda a: a.softmax(1)),
    "log_softmax": ([f(2, 3, 4)], lambda a: a.log_softmax(1)),
    "view": ([f(3, 4)], lambda a: a.view(12)),
    "unsafe_view": ([f(3, 4)], lambda a: a.t().reshape(12)),
    "permute": ([f(2, 3, 4)], lambda a: a.permute(2, 0, 1) * 1),
    "transpose": ([f(2, 3, 4)], lambda a: a.transpose(0, 2) * 1),
    "t": ([f(3, 4)], lambda a: a.t() * 1),
    "squeeze": ([f(3, 1, 4)], lambda a: a.squeeze()),
    "squeeze_dim": ([f(3, 1, 4)], lambda a: a.squeeze(1)),
    "unsqueeze": ([f(3, 4)], lambda a: a.unsqueeze(1)),
    "select": ([f(3, 4)], lambda a: a[1]),
    "slice": ([f(3, 4)], lambda a: a[:, 1:3] * 1),
    "narrow_copy": ([f(3, 4)], lambda a: a.narrow_copy(1, 1, 2)),
    "split": ([f(5, 4)], lambda a: (lambda p, q, r: p * 2 + q - r[:1])(*a.split(2))),
    "split_with_sizes": ([f(3, 4)], lambda a: T.split(a, [1, 3], dim=1)[1] * 3),
    "unbind": ([f(3, 4)], lambda a: (lambda *rows: rows[0] * rows[2])(*a.unbind(0))),
    "index": ([f(3, 4), ints(3, 5)], lambda a, i: a[i]),
    "index_select": ([f(3, 4), ints(4, 2)], lambda a, i: T.index_select(a, 1, i)),
    "gather": ([f(3, 4), ints(4, 3, 2)], lambda a, i: T.gather(a, 1, i)),
    "index_backward": ([f(5, 3), ints(5, 4)], lambda a, i: a[i] * 2),
    "alias": ([f(3, 4)], lambda a: a[...] * 1),
    "as_strided_copy": ([f(3, 4)], lambda a: _inplace_on_view(a)),
    "as_strided": ([f(3, 4)], lambda a: a.as_strided((3, 3), (2, 1), 1) * 1),
    "as_strided_backward": ([f(3, 4)], lambda a: a.as_strided((2, 3), (1, 2))),
    "unfold": ([f(8)], lambda a: a.unfold(0, 3, 2) * 1),
    "unfold_backward": ([f(2, 6)], lambda a: a.unfold(1, 2, 1)),
    "index_put": ([f(3, 4), f(2, 4), ints(3, 2)], lambda a, v, i: _setitem_index(a, v, i)),
    "copy_slices": ([f(3, 4), f(2, 4)], _setitem(slice(0, 2))),
    "cat": ([f(2, 4), f(3, 4)], lambda a, b: T.cat([a, b], 0)),
    "stack": ([f(2, 4), f(2, 4)], lambda a, b: T.stack([a, b], 1)),
    "mm": ([f(3, 4), f(4, 5)], T.mm),
    "bmm": ([f(2, 3, 4), f(2, 4, 5)], T.bmm),
    "dot": ([f(4), f(4)], T.dot),
    "mv": ([f(3, 4), f(4)], T.mv),
    "addmm": ([f(5), f(3, 4), f(4, 5)], T.addmm),
    "squeeze_": ([f(4), f(4, 5)], T.matmul),
    "gelu": ([f(3, 4)], F.gelu),
    "gelu_backward": ([f(3, 4)], lambda a: F.gelu(a, approximate="tanh")),
    "convolution": ([f(2, 3, 6, 6), f(4, 3, 3, 3)], F.conv2d),
    "convolution_input_grad": ([f(1, 2, 5, 5), f(3, 2, 2, 2)], lambda x, w: F.conv2d(x, w)),
    "convolution_weight_grad": ([data(1, 2, 5, 5), f(3, 2, 2, 2)], F.conv2d),
    "max_pool2d": ([f(2, 3, 6, 6)], lambda x: F.max_pool2d(x, 2)),
    "max_pool3d": ([f(1, 2, 4, 4, 5)], lambda x: F.max_pool3d(x, 2, padding=1)),
    "max_pool2d_backward": ([f(2, 3, 5, 5)], lambda x: F.max_pool2d(x, 3, 2, 1)),
    "max_pool3d_backward": ([f(1, 2, 4, 4, 4)], lambda x: F.max_pool3d(x, 2)),
    "avg_pool2d": ([f(2, 3, 6, 6)], lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True)),
    "avg_pool2d_backward": ([f(1, 2, 5, 5)], lambda x: F.avg_pool2d(x, 2, 1, 1, False, False)),
    "avg_pool3d": ([f(1, 2, 4, 5, 4)], lambda x: F.avg_pool3d(x, 2, padding=1)),
    "avg_pool3d_backward": ([f(1, 2, 3, 4, 4)], lambda x: F.avg_pool3d(x, (2, 1, 2),
                                                                       divisor_override=3)),
    "nll_loss": ([f(5, 4), ints(4, 5)], lambda x, y: F.nll_loss(x.log_softmax(1), y)),
    "nll_loss_backward": ([f(5, 4), ints(4, 5)],
                          lambda x, y: F.nll_loss(x, y, weight=T.tensor([1.0, 2.0, 0.5, 1.0]))),
    "nll_loss2d": ([f(2, 3, 2, 2), ints(3, 2, 2, 2)],
                   lambda x, y: F.nll_loss(x.log_softmax(1), y, reduction="none")),
    "softmax_backward": ([f(2, 3, 4)], lambda a: a.softmax(1) * a),
    "log_softmax_backward": ([f(2, 3, 4)], lambda a: a.log_softmax(2) * a),
    "binary_cross_entropy": ([f(3, 4), data(3, 4)],
                             lambda x, t: F.binary_cross_entropy(x.sigmoid(), (t > 0).float())),
    "binary_cross_entropy_with_logits": ([f(3, 4), f(3, 4)],
                                         F.binary_cross_entropy_with_logits),
    "mse_loss": ([f(3, 4), f(3, 4)], F.mse_loss),
    "mse_loss_backward": ([f(3, 4), f(3, 4)], lambda x, y: F.mse_loss(x, y, reduction="sum")),
    "div_scalar": ([f(3, 4), f(3, 4)], F.cross_entropy),
    "mul_scalar": ([f(3, 4)], lambda a: T.trapezoid(a, dx=0.5)),
    "layer_norm": ([f(3, 4), f(4), f(4)], lambda x, w, b: F.layer_norm(x, (4,), w, b)),
    # 4-d inputs take PyTorch's CPU flash kernel; its backward is a primitive of its own
    "scaled_dot_product_flash_attention": ([f(1, 2, 3, 4), f(1, 1, 5, 4), f(1, 1, 5, 4)],
                                           lambda q, k, v: F.scaled_dot_product_attention(
                                               q, k, v, is_causal=True, enable_gqa=True)),
    "scaled_dot_product_flash_attention_backward": (
        [f(1, 2, 3, 4), f(1, 2, 3, 4), f(1, 2, 3, 4)],
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=T.ones(
            3, 3, dtype=T.bool).tril())),
    "group_norm": ([f(2, 4, 3), f(4), f(4)], lambda x, w, b: F.group_norm(x, 2, w, b)),
    "embedding": ([f(5, 3), ints(5, 2, 4)], lambda w, i: F.embedding(i, w)),
    "adaptive_avg_pool2d": ([f(2, 3, 5, 7)], lambda x: F.adaptive_avg_pool2d(x, (2, 3))),
    "adaptive_max_pool2d": ([f(2, 3, 5, 7)], lambda x: F.adaptive_max_pool2d(x, (2, 3))),
    "adaptive_max_pool2d_indices": ([f(2, 3, 5, 7)], lambda x: F.adaptive_max_pool2d(
        x, 3, return_indices=True)[0]),
    "adaptive_avg_pool3d": ([f(1, 2, 3, 5, 4)], lambda x: F.adaptive_avg_pool3d(x, (2, 3, 2))),
    "adaptive_avg_pool2d_backward": ([f(2, 3, 4, 5)], lambda x: F.adaptive_avg_pool2d(x, 2)),
    "adaptive_avg_pool3d_backward": ([f(1, 2, 3, 4, 3)], lambda x: F.adaptive_avg_pool3d(x, 2)),
    "adaptive_max_pool2d_backward": ([f(2, 3, 4, 5)], lambda x: F.adaptive_max_pool2d(x, 3)),
    "adaptive_max_pool3d_backward": ([f(1, 2, 3, 4, 3)], lambda x: F.adaptive_max_pool3d(x, 2)),
    "adaptive_max_pool3d": ([f(1, 2, 3, 5, 4)], lambda x: F.adaptive_max_pool3d(x, (2, 3, 2))),
    "adaptive_max_pool3d_indices": ([f(2, 3, 4, 5)], lambda x: F.adaptive_max_pool3d(
        x, 2, return_indices=True)[0]),
    "fractional_max_pool2d": ([f(1, 2, 6, 7), data(1, 2, 2)], lambda x, s: F.fractional_max_pool2d(
        x, 2, (3, 4), _random_samples=s.sigmoid())),
    "fractional_max_pool2d_indices": ([f(2, 5, 5), data(1, 2, 2)], lambda x, s:
                                      F.fractional_max_pool2d(x, 2, 3, return_indices=True,
                                                              _random_samples=s.sigmoid())[0]),
    "fractional_max_pool3d": ([f(1, 2, 4, 5, 4), data(1, 2, 3)], lambda x, s:
                              F.fractional_max_pool3d(x, 2, (2, 3, 2),
                                                      _random_samples=s.sigmoid())),
    "fractional_max_pool3d_indices": ([f(2, 4, 5, 5), data(1, 2, 3)], lambda x, s:
                                      F.fractional_max_pool3d(x, (1, 2, 2), 3,
                                                              _random_samples=s.sigmoid())),
    "fractional_max_pool2d_backward": ([f(1, 2, 5, 6), data(1, 2, 2)], lambda x, s:
                                       F.fractional_max_pool2d(x, 2, (3, 4),
                                                               _random_samples=s.sigmoid())),
    "fractional_max_pool3d_backward": ([f(1, 2, 5, 5, 5), data(1, 2, 3)], lambda x, s:
                                       F.fractional_max_pool3d(x, 2, 3,
                                                               _random_samples=s.sigmoid())),
    "im2col": ([f(2, 3, 5, 6)], lambda x: F.unfold(x, 2)),
    "col2im": ([f(2, 12, 20)], lambda c: F.fold(c, (5, 6), 2)),
    "pixel_shuffle": ([f(2, 8, 3, 3)], lambda x: F.pixel_shuffle(x, 2)),
    "pixel_unshuffle": ([f(2, 2, 4, 6)], lambda x: F.pixel_unshuffle(x, 2)),
    "channel_shuffle": ([f(2, 6, 3)], lambda x: F.channel_shuffle(x, 2)),
    "max_unpool2d": ([f(1, 1, 2, 2)], lambda x: F.max_unpool2d(
        x, T.tensor([[[[0, 3], [9, 14]]]]), 2)),
    "max_unpool3d": ([f(1, 1, 1, 2, 1)], lambda x: F.max_unpool3d(
        x, T.tensor([[[[[0], [11]]]]]), 2)),
    "upsample_nearest1d": ([f(2, 3, 4)], lambda x: F.interpolate(x, scale_factor=2.5)),
    "upsample_nearest1d_backward": ([f(2, 3, 4)], lambda x: F.interpolate(x, size=3)),
    "upsample_nearest2d": ([f(1, 2, 3, 4)], lambda x: F.interpolate(x, scale_factor=2)),
    "upsample_nearest2d_backward": ([f(1, 2, 3, 4)], lambda x: F.interpolate(x, size=(5, 3))),
    "upsample_nearest3d": ([f(1, 1, 2, 3, 2)], lambda x: F.interpolate(x, scale_factor=2)),
    "upsample_nearest3d_backward": ([f(1, 1, 2, 3, 2)],
                                    lambda x: F.interpolate(x, size=(3, 2, 4))),
    "upsample_nearestexact1d": ([f(2, 3, 4)],
                                lambda x: F.interpolate(x, size=7, mode="nearest-exact")),
    "upsample_nearestexact1d_backward": ([f(2, 3, 4)], lambda x: F.interpolate(
        x, scale_factor=1.5, mode="nearest-exact")),
    "upsample_nearestexact2d": ([f(1, 2, 3, 4)],
                                lambda x: F.interpolate(x, size=(5, 3), mode="nearest-exact")),
    "upsample_nearestexact2d_backward": ([f(1, 2, 3, 4)], lambda x: F.interpolate(
        x, scale_factor=2, mode="nearest-exact")),
    "upsample_nearestexact3d": ([f(1, 1, 2, 3, 2)], lambda x: F.interpolate(
        x, scale_factor=2, mode="nearest-exact")),
    "upsample_nearestexact3d_backward": ([f(1, 1, 2, 3, 2)], lambda x: F.interpolate(
        x, size=(3, 4, 3), mode="nearest-exact")),
    "upsample_linear1d": ([f(2, 3, 4)], lambda x: F.interpolate(x, size=7, mode="linear")),
    "upsample_linear1d_backward": ([f(2, 3, 4)], lambda x: F.interpolate(
        x, scale_factor=2, mode="linear", align_corners=True)),
    "upsample_bilinear2d": ([f(1, 2, 3, 4)],
                            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear")),
    "upsample_bilinear2d_backward": ([f(1, 2, 3, 4)], lambda x: F.interpolate(
        x, size=(5, 3), mode="bilinear", align_corners=True)),
    "upsample_trilinear3d": ([f(1, 1, 2, 3, 2)],
                             lambda x: F.interpolate(x, scale_factor=2, mode="trilinear")),
    "upsample_trilinear3d_backward": ([f(1, 1, 2, 3, 2)], lambda x: F.interpolate(
        x, size=(3, 4, 3), mode="trilinear", align_corners=True)),
    "upsample_bicubic2d": ([f(1, 2, 3, 4)],
                           lambda x: F.interpolate(x, scale_factor=2, mode="bicubic")),
    "upsample_bicubic2d_backward": ([f(1, 2, 3, 4)], lambda x: F.interpolate(
        x, size=(5, 3), mode="bicubic", align_corners=True)),
    "_upsample_bilinear2d_aa": ([f(1, 2, 7, 6)], lambda x: F.interpolate(
        x, size=(3, 4), mode="bilinear", antialias=True)),
    "_upsample_bilinear2d_aa_backward": ([f(1, 2, 7, 6)], lambda x: F.interpolate(
        x, scale_factor=0.4, mode="bilinear", antialias=True)),
    "_upsample_bicubic2d_aa": ([f(1, 2, 7, 6)], lambda x: F.interpolate(
        x, size=(3, 4), mode="bicubic", antialias=True)),
    "_upsample_bicubic2d_aa_backward": ([f(1, 2, 7, 6)], lambda x: F.interpolate(
        x, size=(2, 9), mode="bicubic", antialias=True, align_corners=True)),
    "_upsample_lanczos2d_aa": ([f(1, 2, 7, 6)], lambda x: F.interpolate(
        x, size=(3, 4), mode="lanczos", antialias=True)),
    "_upsample_lanczos2d_aa_backward": ([f(1, 2, 7, 6)], lambda x: F.interpolate(
        x, size=(2, 9), mode="lanczos", antialias=True)),
    "affine_grid_generator": ([f(2, 2, 3)],
                              lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=False)),
    "grid_sampler_2d": ([f(2, 3, 4, 5), f(2, 3, 2, 2, low=-1.2, high=1.2)],
                        lambda x, g: F.grid_sample(x, g, align_corners=False)),
    "grid_sampler_2d_backward": ([f(2, 3, 4, 5), f(2, 3, 2, 2, low=-1.2, high=1.2)],
                                 lambda x, g: F.grid_sample(x, g, padding_mode="reflection",
                                                            align_corners=True)),
    "grid_sampler_3d": ([f(1, 2, 3, 4, 3), f(1, 2, 2, 2, 3, low=-1.2, high=1.2)],
                        lambda x, g: F.grid_sample(x, g, align_corners=False)),
    "grid_sampler_3d_backward": ([f(1, 2, 3, 4, 3), f(1, 2, 2, 2, 3, low=-1.2, high=1.2)],
                                 lambda x, g: F.grid_sample(x, g, padding_mode="border",
                                                            align_corners=True)),
    "embedding_bag": ([f(6, 3), ints(6, 7)], lambda w, i: F.embedding_bag(
        i, w, T.tensor([0, 2, 2, 5]), mode="sum")),
    "embedding_bag_argmax": ([f(6, 3), ints(6, 7)], lambda w, i: F.embedding_bag(
        i, w, T.tensor([0, 2, 2, 5]), mode="max", padding_idx=1)),
    "embedding_bag_max": ([f(6, 3), ints(6, 7)], lambda w, i: F.embedding_bag(
        i.view(1, 7), w, mode="max")),
    "embedding_dense_backward": ([f(2, 4, 3), data(8, 1)], lambda g, s: PRIMITIVES[
        "embedding_dense_backward"](g, T.tensor([[0, 3, 3, 1], [4, 0, 3, 2]]), s, rows=5,
                                    padding_idx=3)),
    "embedding_renorm": ([data(5, 3)], lambda w: T.embedding_renorm_(
        nonleaf(w), T.tensor([0, 3, 3]), 1.0, 2.0)),
    "index_fill": ([f(3, 4)], lambda a: a.index_fill(1, T.tensor([0, 2]), -1.0)),
    "index_fill_tensor": ([f(3, 4), f()], lambda a, v: a.index_fill(0, T.tensor([1]), v)),
    "masked_scatter": ([data(3, 4), f(12)], lambda a, s: a.masked_scatter(a > 0, s.view(3, 4))),
    "masked_select": ([f(3, 4)],
                      lambda a: T.masked_select(a, T.tensor([True, False, True, True]))),
    "celu": ([f(3, 4)], lambda x: F.celu(x, 0.7)),
    "celu_": ([f(3, 4)], lambda x: F.celu(nonleaf(x), 0.7, inplace=True)),
    "threshold": ([f(3, 4)], lambda x: F.threshold(x, 0.3, -1.0)),
    "threshold_": ([f(3, 4)], lambda x: F.threshold(nonleaf(x), 0.3, -1.0, inplace=True)),
    "softshrink": ([f(3, 4)], lambda x: F.softshrink(x, 0.5)),
    "softshrink_backward": ([f(3, 4)], lambda x: F.softshrink(x, 0.3)),
    "hardshrink": ([f(3, 4)], lambda x: F.hardshrink(x, 0.5)),
    "hardshrink_backward": ([f(3, 4)], lambda x: F.hardshrink(x, 0.3)),
    "prelu": ([f(2, 3, 4), f(3)], F.prelu),
    "prelu_backward": ([f(3, 4), f(1)], F.prelu),
    "glu": ([f(3, 4)], lambda x: F.glu(x, 1)),
    "rrelu_with_noise": ([f(3, 4)], lambda x: F.rrelu(x, 0.1, 0.3)),
    "rrelu_with_noise_": ([f(3, 4)], lambda x: F.rrelu(nonleaf(x), 0.1, 0.3, inplace=True)),
    "rrelu_with_noise_backward": ([f(3, 4)], lambda x: F.rrelu(x, 0.1, 0.3)),
    "soft_margin_loss": ([f(3, 4), data(3, 4).sign()], F.soft_margin_loss),
    "multi_margin_loss": ([f(3, 4), ints(4, 3)], lambda x, y: F.multi_margin_loss(x, y, p=2)),
    "multilabel_margin_loss": ([f(3, 4), ints(4, 3, 4)], lambda x, y: F.multilabel_margin_loss(
        x, y.remainder(5) - 1)),
    "multilabel_margin_loss_backward": ([f(3, 4), ints(4, 3, 4)],
                                        lambda x, y: F.multilabel_margin_loss(
                                            x, y.remainder(5) - 1)),
    "multi_margin_loss_backward": ([f(3, 4), ints(4, 3)],
                                   lambda x, y: F.multi_margin_loss(x, y, p=2)),
    "soft_margin_loss_backward": ([f(3, 4), data(3, 4).sign()], F.soft_margin_loss),
    "glu_backward": ([f(3, 4)], lambda x: F.glu(x, 1)),
    "binary_cross_entropy_backward": ([f(3, 4), data(3, 4)], lambda x, t: F.binary_cross_entropy(
        x.sigmoid(), (t > 0).float())),
    "pack_padded_sequence": ([f(3, 2, 4)], lambda x: T.nn.utils.rnn.pack_padded_sequence(
        x, [3, 1]).data * 1),
    "pad_packed_sequence": ([f(3, 2, 4)], lambda x: T.nn.utils.rnn.pad_packed_sequence(
        T.nn.utils.rnn.pack_padded_sequence(x, [3, 1]))[0]),
    "mkldnn_rnn_layer": ([f(3, 2, 2), f(8, 2), f(8, 2), f(8), f(8), f(2, 2), f(2, 2)],
                         lambda *a: T.ops.recurrent.mkldnn_rnn_layer(*a, reverse=True)[0]),
    "_weight_norm_interface": ([f(3, 4), f(3, 1)],
                               lambda v, g: T.ops.weight_norm._weight_norm_interface(v, g, dim=0)),
    "batch_norm": ([f(4, 3, 2), f(3), f(3)], lambda x, w, b: F.batch_norm(x, None, None, w, b,
                                                                         training=True)),
    "batch_norm_eval": ([f(4, 3), f(3), f(3), positive(3)],
                        lambda x, w, b, v: F.batch_norm(x, v.detach() - 1, v.detach(), w, b)),
    "batch_norm_update_stats": ([f(4, 3, 2), f(3), positive(3)], lambda x, m, v: _running_stats(
        x, m.detach().clone(), v.detach().clone())),
    "constant_pad_nd": ([f(3, 4)], lambda x: F.pad(x, (1, -1, 2, 0), value=0.5)),
    "smooth_l1_loss": ([f(3, 4), f(3, 4)], lambda x, y: F.smooth_l1_loss(x, y, beta=0.5)),
    "huber_loss": ([f(3, 4), f(3, 4)], lambda x, y: F.huber_loss(x, y, delta=0.7)),
    "smooth_l1_loss_backward": ([f(3, 4), f(3, 4)], lambda x, y: F.smooth_l1_loss(
        x, y, reduction="none")),
    "huber_loss_backward": ([f(3, 4), f(3, 4)], lambda x, y: F.huber_loss(x, y, reduction="sum")),
    "leaky_relu": ([f(3, 4)], lambda x: F.leaky_relu(x, 0.2)),
    "leaky_relu_": ([f(3, 4)], lambda x: F.leaky_relu(nonleaf(x), 0.2, inplace=True)),
    "elu": ([f(3, 4)], F.elu),
    "elu_": ([f(3, 4)], lambda x: F.elu(nonleaf(x), inplace=True)),
    "elu_backward": ([f(3, 4)], F.selu),
    "leaky_relu_backward": ([f(3, 4)], F.leaky_relu),
    "softplus": ([f(3, 4)], lambda x: F.softplus(x, beta=2.0)),
    "softplus_backward": ([f(3, 4)], lambda x: F.softplus(x, threshold=1.0)),
    "silu": ([f(3, 4)], F.silu),
    "mish": ([f(3, 4)], F.mish),
    "hardtanh": ([f(3, 4)], F.hardtanh),
    "hardtanh_backward": ([f(3, 4)], F.relu6),
    "log_sigmoid": ([f(3, 4)], F.logsigmoid),
    "log_sigmoid_backward": ([f(3, 4)], F.logsigmoid),
    "hardswish": ([f(3, 4, high=4.0, low=-4.0)], F.hardswish),
    "hardswish_backward": ([f(3, 4, high=4.0, low=-4.0)], F.hardswish),
    "hardsigmoid": ([f(3, 4, high=4.0, low=-4.0)], F.hardsigmoid),
    "hardsigmoid_backward": ([f(3, 4, high=4.0, low=-4.0)], F.hardsigmoid),
    "log1p": ([positive(3, 4)], T.log1p),
    "expm1": ([f(3, 4)], T.expm1),
    "sinh": ([f(3, 4)], T.sinh),
    "cosh": ([f(3, 4)], T.cosh),
    "tan": ([f(3, 4, low=-1, high=1)], T.tan),
    "atan": ([f(3, 4)], T.atan),
    "asin": ([f(3, 4, low=-0.9, high=0.9)], T.asin),
    "acos": ([f(3, 4, low=-0.9, high=0.9)], T.acos),
    "erf": ([f(3, 4)], T.erf),
    "erfinv": ([f(3, 4, low=-0.8, high=0.8)], T.erfinv),
    "rsqrt": ([positive(3, 4)], T.rsqrt),
    "log2": ([positive(3, 4)], T.log2),
    "log10": ([positive(3, 4)], T.log10),
    "exp2": ([f(3, 4)], T.exp2),
    "trunc": ([f(3, 4)], lambda a: T.trunc(a) * a),
    "frac": ([f(3, 4)], T.frac),
    "atan2": ([f(3, 4), positive(3, 4)], T.atan2),
    "hypot": ([f(3, 4), positive(4)], T.hypot),
    "lerp": ([f(3, 4), f(3, 4)], lambda a, b: T.lerp(a, b, 0.3)),
    "lerp_tensor": ([f(3, 4), f(3, 4), f(4)], T.lerp),
    "sgn": ([f(3, 4)], lambda a: T.sgn(a) * a),
    "signbit": ([data(3, 4)], lambda a: a.round().signbit()),
    "isposinf": ([data(3, 4)], lambda a: (1 / a.round()).isposinf()),
    "isneginf": ([data(3, 4)], lambda a: (1 / a.round()).isneginf()),
    "isreal": ([data(3, 4)], T.isreal),
    "fmax": ([f(3, 4), f(4)], lambda a, b: T.fmax(a, b.log())),
    "fmin": ([f(3, 4), f(3, 4)], lambda a, b: T.fmin(a.log(), b)),
    "copysign": ([f(3, 4), f(4)], T.copysign),
    "copysign_scalar": ([f(3, 4)], lambda a: T.copysign(a, -1.0)),
    "fmod": ([f(3, 4), positive(4)], T.fmod),
    "fmod_scalar": ([f(3, 4)], lambda a: T.fmod(a, 0.75)),
    "addcmul": ([f(3, 4), f(3, 4), f(4)], lambda a, b, c: T.addcmul(a, b, c, value=0.5)),
    "addcdiv": ([f(3, 4), f(4), positive(3, 4)], lambda a, b, c: T.addcdiv(a, b, c, value=-2)),
    "logaddexp": ([f(3, 4), f(4)], T.logaddexp),
    "logaddexp2": ([f(3, 4), f(3, 4)], T.logaddexp2),
    "xlogy": ([f(3, 4), positive(3, 4)], lambda a, b: T.xlogy(a.round(), b)),
    "xlogy_scalar_other": ([f(3, 4)], lambda a: T.xlogy(a.round(), 2.5)),
    "xlogy_scalar_self": ([positive(3, 4)], lambda a: T.xlogy(1.5, a)),
    "special_xlog1py": ([f(3, 4), positive(4)], tapegrad.special.xlog1py),
    "special_xlog1py_scalar_other": ([f(3, 4)], lambda a: tapegrad.special.xlog1py(a, 2.5)),
    "special_xlog1py_scalar_self": ([positive(3, 4)], lambda a: tapegrad.special.xlog1py(1.5, a)),
    "asinh": ([f(3, 4)], T.asinh),
    "acosh": ([f(3, 4, low=1.2, high=3.0)], T.acosh),
    "atanh": ([f(3, 4, low=-0.9, high=0.9)], T.atanh),
    "asinh_inplace": ([data(3, 4)], _inplace("asinh_")),
    "acosh_inplace": ([data(3, 4)], lambda a: _inplace("acosh_")(a.abs() + 1)),
    "atanh_inplace": ([data(3, 4)], lambda a: _inplace("atanh_")(a * 0.4)),
    "erfc": ([f(3, 4)], T.erfc),
    "sinc": ([f(3, 4)], T.sinc),
    "special_entr": ([positive(3, 4)], tapegrad.special.entr),
    "i0": ([f(3, 4)], T.i0),
    "special_i0e": ([f(3, 4)], tapegrad.special.i0e),
    "special_i1": ([f(3, 4)], tapegrad.special.i1),
    "special_i1e": ([f(3, 4)], tapegrad.special.i1e),
    "special_log_ndtr": ([f(3, 4)], tapegrad.special.log_ndtr),
    "special_ndtri": ([f(3, 4, low=0.05, high=0.95)], tapegrad.special.ndtri),
    "special_erfcx": ([f(3, 4)], tapegrad.special.erfcx),
    "ldexp": ([f(3, 4), f(4)], T.ldexp),
    "frexp": ([f(3, 4)], lambda a: tuple(a.frexp())),
    "deg2rad": ([f(3, 4)], T.deg2rad),
    "rad2deg": ([f(3, 4)], T.rad2deg),
    "heaviside": ([data(3, 4), data(4)], lambda a, b: T.heaviside(a.round(), b)),
    "gcd": ([ints(20, 3, 4), ints(20, 4)], T.gcd),
    "lcm": ([ints(20, 3, 4), ints(20, 4)], T.lcm),
    "logit": ([f(3, 4, low=0.1, high=0.9)], lambda a: T.logit(a, eps=0.05)),
    "nan_to_num": ([positive(3, 4)], lambda a: T.nan_to_num(a.log())),
    "flip": ([f(3, 4)], lambda a: a.flip(1)),
    "roll": ([f(3, 4)], lambda a: a.roll(1, 0)),
    "tril": ([f(3, 4)], T.tril),
    "triu": ([f(3, 4)], lambda a: T.triu(a, 1)),
    "repeat": ([f(2, 3)], lambda a: a.repeat(2, 1, 2)),
    "diagonal": ([f(3, 4)], lambda a: a.diagonal(1) * 1),
    "diagonal_copy": ([f(3, 4)], T.diag),
    "diagonal_backward": ([f(4, 4)], lambda a: T.diag(a) * 2),
    "diag_embed": ([f(2, 3)], lambda a: T.diag_embed(a, 1, 0, 2)),
    "trace": ([f(3, 4)], T.trace),
    "baddbmm": ([f(3, 5), f(2, 3, 4), f(2, 4, 5)], lambda a, b, c: T.baddbmm(a, b, c, beta=0.5)),
    "addbmm": ([f(3, 5), f(2, 3, 4), f(2, 4, 5)], lambda a, b, c: T.addbmm(a, b, c, alpha=2)),
    "addmv": ([f(3), f(3, 4), f(4)], lambda a, b, c: T.addmv(a, b, c, beta=0.5)),
    "addr": ([f(3, 4), f(3), f(4)], lambda a, b, c: T.addr(a, b, c, alpha=2)),
    "vdot": ([f(4), f(4)], lambda a, b: T.vdot(a, b)),
    "dist": ([f(3, 4), f(4)], lambda a, b: T.dist(a, b, 3)),
    "cdist": ([f(3, 4), f(5, 4)], lambda a, b: T.cdist(a, b)),
    "cumsum": ([f(3, 4)], lambda a: a.cumsum(1)),
    "cumprod": ([f(3, 4)], lambda a: a.cumprod(0)),
    "logcumsumexp": ([f(3, 4)], lambda a: a.logcumsumexp(1)),
    "log_space_cumsum_part": ([f(3, 4)], lambda a: a.logcumsumexp(0)),  # its backward's parts
    "prod_all": ([f(3, 4)], lambda a: a.prod()),
    "prod": ([f(3, 4)], lambda a: a.prod(1)),
    "sort": ([f(3, 4)], lambda a: tuple(a.sort(1))),
    "topk": ([f(3, 4)], lambda a: tuple(a.topk(2))),
    "kthvalue": ([f(3, 4)], lambda a: tuple(a.kthvalue(2, 0))),
    "median_all": ([f(3, 4)], lambda a: a.median()),
    "nanmedian_all": ([f(3, 4)], lambda a: a.nanmedian()),
    "nanmedian": ([f(3, 4)], lambda a: tuple(a.nanmedian(1))),
    "mode": ([f(3, 4)], lambda a: tuple(a.mode(1))),
    "cummin": ([f(3, 4)], lambda a: tuple(a.cummin(1))),
    "median": ([f(3, 4)], lambda a: tuple(a.median(1))),
    "cummax": ([f(3, 4)], lambda a: tuple(a.cummax(1))),
    "scatter": ([f(3, 4), f(2, 4)],
                lambda a, s: a.scatter(0, T.tensor([[0, 1, 2, 0], [2, 0, 1, 1]]), s)),
    "scatter_value": ([f(3, 4)], lambda a: a.scatter(1, T.tensor([[0], [3], [1]]), 2.5)),
    # no derivative in PyTorch (backward through it fails): traced without grad
    "scatter_reduce_legacy": ([f(3, 4), f(2, 4)], lambda a, s: a.detach().scatter(
        0, T.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), s.detach(), reduce="multiply")),
    "scatter_add": ([f(3, 4), f(2, 4)],
                    lambda a, s: a.scatter_add(0, T.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), s)),
    "index_add": ([f(3, 4), f(3, 2)], lambda a, s: a.index_add(1, T.tensor([0, 0]), s)),
    "segment_reduce": ([f(5, 3)], lambda a: T.segment_reduce(a, "max",
                                                               lengths=T.tensor([2, 0, 3]))),
    "scatter_reduce": ([f(3, 4), f(2, 4)], lambda a, s: a.scatter_reduce(
        0, T.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), s, "amax", include_self=False)),
    "index_reduce": ([f(3, 4), f(3, 2)], lambda a, s: a.index_reduce(1, T.tensor([0, 0]), s,
                                                                     "prod")),
    "index_copy": ([f(3, 4), f(3, 2)], lambda a, s: a.index_copy(1, T.tensor([3, 0]), s)),
    "take": ([f(3, 4)], lambda a: T.take(a, T.tensor([[0, 11], [5, 5]]))),
    "put": ([f(3, 4), f(2, 2)], lambda a, s: a.put(T.tensor([[0, 11], [5, -2]]), s)),
    "select_scatter": ([f(3, 4), f(3)], lambda a, s: T.select_scatter(a, s, 1, 2)),
    "slice_scatter": ([f(3, 4), f(3, 2)], lambda a, s: T.slice_scatter(a, s, 1, 0, 4, 2)),
    "diagonal_scatter": ([f(3, 4), f(3)], lambda a, s: T.diagonal_scatter(a, s, 1)),
    "poisson": ([positive(3, 4)], lambda a: PRIMITIVES["poisson"](
        a, values=np.arange(12.0).reshape(3, 4))),
    # no derivative in PyTorch (backward through it fails): traced without grad
    "binomial": ([positive(3, 4)], lambda a: PRIMITIVES["binomial"](
        a.detach(), a.detach() / 10, values=np.arange(12.0).reshape(3, 4))),
    "block_diag": ([f(2, 3), f(2), f()], T.block_diag),
    "rot90": ([f(2, 3, 4)], lambda a: T.rot90(a, 3, (2, 0))),
    "renorm": ([f(3, 4)], lambda a: a.renorm(2, 0, 1.5)),
    "lgamma": ([positive(3, 4)], T.lgamma),
    "digamma": ([positive(3, 4)], T.digamma),
    "polygamma": ([positive(3, 4)], lambda a: T.polygamma(2, a)),
    "mvlgamma": ([f(3, 4, low=1.5, high=3.0)], lambda a: T.mvlgamma(a, 2)),
    "special_zeta": ([data(3, 4), positive(4)],
                     lambda a, b: tapegrad.special.zeta(a.abs() + 2, b)),
    "special_zeta_scalar_self": ([positive(3, 4)], lambda a: tapegrad.special.zeta(3.0, a)),
    "special_zeta_scalar_other": ([data(3, 4)],
                                  lambda a: tapegrad.special.zeta(a.abs() + 2, 1.5)),
    # differentiable in x only (PyTorch raises for a)
    "igamma": ([data(3, 4), positive(4)], lambda a, x: T.igamma(a.abs() + 0.5, x)),
    "igammac": ([data(3, 4), positive(4)], lambda a, x: T.igammac(a.abs() + 0.5, x)),
    # the backward primitive runs in the compiled backward (it has no derivative itself)
    "ctc_loss": ([f(6, 2, 4)], lambda x: F.ctc_loss(
        x.log_softmax(2), T.tensor([[1, 2, 2], [3, 1, 0]]), T.tensor([6, 5]), T.tensor([3, 2]))),
    "ctc_loss_backward": ([f(5, 2, 3)], lambda x: F.ctc_loss(
        x.log_softmax(2), T.tensor([1, 2, 2]), (5, 4), (2, 1), reduction="none",
        zero_infinity=True)),
    # gamma samples drawn beforehand (as a trace would meet them: the draw is a graph break)
    "standard_gamma": ([positive(3, 4)], lambda a: PRIMITIVES["standard_gamma"](
        a.detach(), values=np.arange(1.0, 13.0).reshape(3, 4))),
    "standard_gamma_grad": ([positive(3, 4), positive(3, 4)],
                            lambda x, a: PRIMITIVES["standard_gamma_grad"](x.detach(), a.detach())),
    # random fills: a trace meets them with their draws made (a graph input each compiled call
    # draws anew); the samples give them fixed ones
    "bernoulli_": ([f(3, 4)], _filled("bernoulli_")),
    "bernoulli_tensor_": ([f(3, 4), f(4, low=0.0, high=1.0)], _filled("bernoulli_tensor_")),
    "random_": ([f(3, 4)], _filled("random_")),
    "random_to_": ([f(3, 4)], _filled("random_to_")),
    "random_from_to_": ([f(3, 4)], _filled("random_from_to_")),
    "exponential_": ([f(3, 4)], _filled("exponential_")),
    "geometric_": ([f(3, 4)], _filled("geometric_")),
    "log_normal_": ([f(3, 4)], _filled("log_normal_")),
    "cauchy_": ([f(3, 4)], _filled("cauchy_")),
    "index_put_accumulate": ([f(3, 4), f(3, 4)],
                             lambda a, v: a.index_put((T.tensor([0, 0, 2]),), v, accumulate=True)),
    "vector_norm": ([f(3, 4)], lambda a: a.norm(dim=1)),
    "masked_fill": ([f(3, 4)], lambda a: a.masked_fill(a > 0.5, -1.0)),
    "masked_fill_tensor": ([f(3, 4), f()], lambda a, v: a.masked_fill(a > 0, v)),
    "cross": ([f(4, 3), f(4, 3)], T.linalg.cross),
    "det": ([f(2, 3, 3)], lambda a: T.det(a + 3 * T.eye(3))),
    "inv": ([f(3, 3)], lambda a: T.inverse(a + 3 * T.eye(3))),
    "solve": ([f(3, 3), f(3, 2)], lambda a, b: T.linalg.solve(a + 3 * T.eye(3), b)),
    "solve_triangular": ([f(3, 3), f(3, 2)], lambda a, b: T.linalg.solve_triangular(
        a + 3 * T.eye(3), b, upper=True)),
    "triangular_solve": ([f(3, 2), f(3, 3)], lambda b, a: tuple(T.triangular_solve(
        b, a + 3 * T.eye(3), transpose=True))),
    "slogdet": ([f(2, 3, 3)], lambda a: T.linalg.slogdet(a + 3 * T.eye(3)).logabsdet),
    "matrix_exp": ([f(2, 3, 3)], T.linalg.matrix_exp),
    "lu_factor": ([f(3, 3)], lambda a: T.linalg.lu_factor(a + 3 * T.eye(3)).LU),
    "lu_solve": ([f(3, 3), f(3, 2)],
                 lambda a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a + 3 * T.eye(3)), b)),
    "lu_permutation": ([f(2, 3, 3)], lambda a: T.lu_unpack(*T.linalg.lu_factor(a + 3 * T.eye(3)))),
    "linalg_lu": ([f(3, 4)], lambda a: tuple(T.linalg.lu(a + 3 * T.eye(3, 4)))[1:]),
    "ldl_factor": ([data(3, 3)], lambda a: T.linalg.ldl_factor(a + a.mT).LD),
    "ldl_solve": ([data(3, 3), data(3, 2)],
                  lambda a, b: T.linalg.ldl_solve(*T.linalg.ldl_factor(a + a.mT), b)),
    "eigvalsh": ([f(3, 3)], lambda a: T.linalg.eigvalsh(a + a.t())),
    "eigh": ([f(3, 3)], lambda a: tuple(t ** 2 for t in T.linalg.eigh(a + a.t()))),
    "cholesky": ([f(3, 3)], lambda a: T.linalg.cholesky(a @ a.t() + 3 * T.eye(3))),
    "partial_cholesky": ([f(3, 3)], lambda a: T.linalg.cholesky_ex(a - 3 * T.eye(3)).L),
    "singular_inverse": ([f(3, 3)], lambda a: T.linalg.inv_ex(a * T.tensor([1.0, 1.0, 0.0])).inverse),
    "svd": ([f(4, 3)], lambda a: (lambda U, S, Vh: (U * U, S, U @ Vh))(
        *T.linalg.svd(a, full_matrices=False))),
    "svdvals": ([f(2, 3, 4)], T.linalg.svdvals),
    "qr": ([f(4, 3)], lambda a: tuple(T.linalg.qr(a))),
    "cholesky_solve": ([f(3, 2), f(3, 3)], lambda b, l: T.cholesky_solve(
        b, l.tril() + 3 * T.eye(3))),
    "cholesky_inverse": ([f(3, 3)], lambda l: T.cholesky_inverse(l + 3 * T.eye(3), upper=True)),
    "pinv": ([f(4, 3)], T.linalg.pinv),
    "lstsq": ([f(4, 3), f(4, 2)], lambda a, b: T.linalg.lstsq(a, b).solution),
    "householder_product": ([f(4, 3), f(2)], T.linalg.householder_product),
    "geqrf": ([data(4, 3)], lambda a: tuple(T.geqrf(a))),
    "sort_indices": ([f(3, 4)], lambda a: a.argsort(1)),
    "cummax_indices": ([f(3, 4)], lambda a: a.cummax(0).indices),
    "median_indices": ([f(3, 4)], lambda a: a.median(0).indices),
    "kthvalue_indices": ([f(3, 4)], lambda a: a.kthvalue(2, 1).indices),
    "topk_indices": ([f(3, 4)], lambda a: a.topk(2, 0, largest=False).indices),
    "mode_indices": ([f(3, 4)], lambda a: a.mode(0).indices),
    "cummin_indices": ([f(3, 4)], lambda a: a.cummin(0).indices),
    "reflection_pad1d": ([f(2, 5)], lambda x: F.pad(x, (2, -1), mode="reflect")),
    "reflection_pad1d_backward": ([f(2, 3, 4)], lambda x: F.pad(x, (3, 1), mode="reflect")),
    "reflection_pad2d": ([f(2, 4, 5)], lambda x: F.pad(x, (1, 2, 3, 0), mode="reflect")),
    "reflection_pad2d_backward": ([f(1, 2, 3, 3)], lambda x: F.pad(x, (2, 2, 1, 1),
                                                                  mode="reflect")),
    "reflection_pad3d": ([f(2, 3, 3, 4)], lambda x: F.pad(x, (1, 2, 0, 1, 2, 1), mode="reflect")),
    "reflection_pad3d_backward": ([f(1, 2, 2, 3, 3)], lambda x: F.pad(x, (2, 0, 1, 1, 1, 0),
                                                                     mode="reflect")),
    "replication_pad1d": ([f(2, 5)], lambda x: F.pad(x, (3, -1), mode="replicate")),
    "replication_pad1d_backward": ([f(2, 3, 4)], lambda x: F.pad(x, (1, 5), mode="replicate")),
    "replication_pad2d": ([f(2, 4, 5)], lambda x: F.pad(x, (1, 2, 4, 0), mode="replicate")),
    "replication_pad2d_backward": ([f(1, 2, 3, 3)], lambda x: F.pad(x, (2, -1, 1, 3),
                                                                   mode="replicate")),
    "replication_pad3d": ([f(2, 3, 3, 4)], lambda x: F.pad(x, (1, 2, 0, 1, 3, 1),
                                                           mode="replicate")),
    "replication_pad3d_backward": ([f(1, 2, 2, 3, 3)], lambda x: F.pad(x, (2, 0, 1, 4, 1, 0),
                                                                      mode="replicate")),
    "cdist_backward": ([f(2, 3, 4), f(5, 4)], lambda a, b: T.cdist(a, b, p=1.5)),
    "euclidean_dist": ([f(3, 4), f(5, 4)], lambda a, b: T.cdist(
        a, b, compute_mode="use_mm_for_euclid_dist")),
    "pdist": ([f(4, 3)], T.pdist),
    "pdist_backward": ([f(4, 3)], lambda a: T.pdist(a, p=3)),
    "fake_quantize": ([f(3, 4)], lambda a: T.fake_quantize_per_tensor_affine(a, 0.25, 1, -4, 3)),
    "as_strided_scatter": ([f(6), f(2, 2)], lambda a, b: T.as_strided_scatter(a, b, (2, 2),
                                                                               (1, 2), 1)),
}

# Samples that run eagerly, with a warning saying why: the tracer cannot see an in-place write
# through a view (a graph break naming the line), and the backward of max/min along a dim calls
# argmax, which reads tensor data outside the op table (the warning names the primitive).
GRAPH_BREAKS = {"as_strided_copy": "graph break",
                # its output's length is read off the mask
                "masked_select": "masked_select\\(\\) reads the value of a traced tensor"}


def _other_values(tensors):
    """Copies with other values in the same domain (signs kept, indices shuffled): the
    compiled run must not reuse anything the tracing call computed from its data."""
    copies = []
    for t in fresh_leaves(tensors):
        if t.is_floating_point():
            t._array *= _rng.uniform(0.8, 1.2, t.shape).astype(t._array.dtype)
        elif t.dim():
            _rng.shuffle(t._array.reshape(-1))
        copies.append(t)
    return copies


def _inplace_on_view(a):
    c = nonleaf(a)
    c[0].mul_(2)
    return c


def _running_stats(x, mean, var):
    """The running statistics a training-mode batch norm leaves (computed from x each call)."""
    F.batch_norm(x, mean, var, training=True, momentum=0.3)
    return mean, var


def _setitem_index(a, value, index):
    c = nonleaf(a)
    c[index] = value
    return c


# Complex numbers run eagerly: a compiled function that meets one falls back (test_complex.py).
COMPLEX_ONLY = {"complex", "complex_angle", "complex_sgn", "conj", "fft_c2c", "fft_c2r", "fft_r2c",
                "imag", "linalg_eig", "polar", "real", "view_as_complex", "view_as_real"}


def test_every_primitive_has_a_sample():
    missing = sorted(set(PRIMITIVES) - set(SAMPLES) - COMPLEX_ONLY)
    assert not missing, (f"primitives without a compile test sample: {missing}; add one to "
                         "SAMPLES in tests/test_compile_ops.py")


def _flatten(output):
    return list(output) if isinstance(output, tuple) else [output]


def _run(names):
    def run(inputs):
        outputs = []
        for name in names:
            outputs += _flatten(SAMPLES[name][1](*inputs[name]))
        return outputs
    return run


def _backward(outputs, weights):
    """Backward from a weighted sum of the outputs that require grad (if any do)."""
    total = None
    for out, weight in zip(outputs, weights):
        if out.requires_grad:
            term = (out * weight).sum()
            total = term if total is None else total + term
    if total is not None:
        total.backward()


_TRACEABLE = [n for n in SAMPLES if n not in GRAPH_BREAKS]
# Numba's compile time grows faster than the kernel: chunks of 10 compile in about two thirds of
# the time chunks of 25 take, and spread more evenly over the test workers.
_CHUNK_SIZE = 10
_CHUNKS = [_TRACEABLE[i:i + _CHUNK_SIZE] for i in range(0, len(_TRACEABLE), _CHUNK_SIZE)]


_CHUNK_OF = {name: i for i, names in enumerate(_CHUNKS) for name in names}


def _by_chunk(values, chunk_of):
    """Parameters grouped by the chunk they need, so that pytest-xdist (``--dist loadgroup``)
    compiles each chunk on one worker and the chunks on all workers at once."""
    return [pytest.param(v, marks=pytest.mark.xdist_group(f"compile-ops-{chunk_of(v)}"))
            for v in values]


@functools.cache
def _chunk_results(index):
    """Per sample of one chunk: eager and compiled outputs, inputs (with gradients), and the
    specialization that ran them (one compiled function per chunk)."""
    names = _CHUNKS[index]
    eager_inputs = {n: SAMPLES[n][0] for n in names}
    compiled_inputs = {n: fresh_leaves(SAMPLES[n][0]) for n in names}
    eager_out = _run(names)(eager_inputs)
    weights = [tapegrad.Tensor._make(_rng.uniform(0.5, 1.5, o.shape).astype(o._array.dtype))
               for o in eager_out]
    _backward(eager_out, weights)
    compiled = tapegrad.compile(_run(names))
    compiled({n: _other_values(SAMPLES[n][0]) for n in names})  # traces (and runs eagerly)
    for inputs in compiled_inputs.values():
        for t in inputs:
            t.grad = None
    compiled_out = compiled(compiled_inputs)
    _backward(compiled_out, weights)
    specialization = compiled.explain().specializations[-1]
    found, start = {}, 0
    for name in names:
        count = len(_flatten(SAMPLES[name][1](*[t.detach() for t in SAMPLES[name][0]])))
        found[name] = (eager_inputs[name], compiled_inputs[name],
                       eager_out[start:start + count], compiled_out[start:start + count],
                       specialization)
        start += count
    return found


@pytest.mark.parametrize("index", _by_chunk(range(len(_CHUNKS)), lambda i: i))
def test_samples_compiled_into_one_forward_and_one_backward_kernel(index):
    results = _chunk_results(index).values()
    differentiable = any(o.requires_grad for *_, outputs, _ in results for o in outputs)
    for *_, compiled_out, specialization in results:
        program = specialization.program
        assert program.forward is not None
        assert (program.backward is not None) == differentiable
        assert all(o.grad_fn is None or o.grad_fn.name() == "CompiledFunctionBackward"
                   for o in compiled_out)


@pytest.mark.parametrize("name", _by_chunk(_TRACEABLE, _CHUNK_OF.get))
def test_primitive_matches_eager(name):
    eager_inputs, compiled_inputs, eager_out, compiled_out, specialization = \
        _chunk_results(_CHUNK_OF[name])[name]
    assert name in specialization.program.traced_ops, \
        f"the sample for {name} does not apply the primitive {name}"
    for compiled, eager in zip(compiled_out, eager_out):
        assert_close(compiled, eager, rtol=2e-5, atol=2e-6, what=f"{name} output")
    for eager_t, compiled_t in zip(eager_inputs, compiled_inputs):
        if eager_t.requires_grad:
            assert (compiled_t.grad is None) == (eager_t.grad is None), f"{name} gradient presence"
            if eager_t.grad is not None:
                assert_close(compiled_t.grad, eager_t.grad, rtol=1e-4, atol=1e-5,
                             what=f"{name} gradient")


@pytest.mark.parametrize("index", _by_chunk(range(len(_CHUNKS)), lambda i: i))
def test_fallback_ops_are_named(index):
    """Primitives without a lowering run through numpy inside the kernel, and explain() says so
    (convolution, for one, has no lowering yet)."""
    specialization = next(iter(_chunk_results(index).values()))[-1]
    text = specialization.describe()
    fallbacks = set(specialization.program.fallback_ops)
    for op in fallbacks:
        assert op in text.split("ops without a lowering (numpy inside the kernel): ")[1]
    if "convolution" in _CHUNKS[index]:
        assert "convolution" in fallbacks


@pytest.mark.parametrize("name", sorted(GRAPH_BREAKS))
def test_untraceable_samples_run_eagerly_with_a_warning(name):
    inputs, function = SAMPLES[name]
    compiled = tapegrad.compile(function)
    with pytest.warns(CompileWarning, match=GRAPH_BREAKS[name]) as caught:
        compiled(*fresh_leaves(inputs))
    assert caught[0].filename == __file__
    out = compiled(*fresh_leaves(inputs))
    for got, want in zip(_flatten(out), _flatten(function(*fresh_leaves(inputs)))):
        assert_close(got, want, what=name)
