"""Differences found by the diffusion-model programs (ddpm_*): batch norm in evaluation mode on a
float32 input now computes as ATen's CPU kernel does — one factor ``alpha = 1/sqrt(var + eps) *
weight`` and one offset ``beta = bias - mean * alpha`` per channel, each output ``x * alpha +
beta`` with fused multiply-adds — so its outputs equal PyTorch's to the last bit (sampling loops
under ``model.eval()`` print them)."""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

SHAPES = [(16, 5), (3, 4, 7), (4, 3, 8, 8), (2, 6, 5, 5), (2, 3, 4, 4, 2), (5, 3, 1, 1)]


def _case(shape, seed):
    """Input, running mean and variance, weight and bias as float32 numpy arrays."""
    channels = shape[1]
    x = np.sin(np.arange(np.prod(shape)) * (0.37 + 0.11 * seed)) * (1.7 + seed) + 0.3 * seed - 0.2
    stats = [np.linspace(0.3, -0.2, channels), np.linspace(1.3, 0.07, channels),
             np.linspace(-1.3, 2.1, channels), np.linspace(0.1, -0.3, channels)]
    return [a.astype(np.float32) for a in (x.reshape(shape), *stats)]


def _eval(lib, functional, arrays, affine, eps):
    x, mean, var, weight, bias = (lib.tensor(a) for a in arrays)
    if not affine:
        weight = bias = None
    return functional.batch_norm(x, mean, var, weight, bias, False, 0.1, eps).numpy()


@needs_torch
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("affine", [True, False])
def test_eval_batch_norm_float32_equals_torch_bitwise(shape, affine):
    for seed in range(3):
        arrays = _case(shape, seed)
        eps = 1e-3 * (seed + 1)
        ours = _eval(tapegrad, TF, arrays, affine, eps)
        theirs = _eval(torch, torch.nn.functional, arrays, affine, eps)
        np.testing.assert_array_equal(ours, theirs)


@needs_torch
def test_eval_batch_norm_module_channels_last_equals_torch():
    arrays = _case((2, 6, 5, 5), 1)

    def run(lib):
        bn = lib.nn.BatchNorm2d(6).eval()
        with lib.no_grad():
            for buffer, value in zip((bn.running_mean, bn.running_var, bn.weight, bn.bias),
                                     arrays[1:]):
                buffer.copy_(lib.tensor(value))
        x = lib.tensor(arrays[0]).to(memory_format=lib.channels_last)
        out = bn(x)
        return out.detach().numpy(), out.is_contiguous(memory_format=lib.channels_last)

    ours, theirs = run(tapegrad), run(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1] == theirs[1]


@pytest.mark.parametrize("shape", SHAPES)
def test_eval_batch_norm_float32_is_the_rounded_exact_value(shape):
    """Within one float32 rounding of (x - mean) / sqrt(var + eps) * weight + bias in float64."""
    x, mean, var, weight, bias = _case(shape, 2)
    ours = _eval(tapegrad, TF, (x, mean, var, weight, bias), True, 1e-5)
    view = (1, -1) + (1,) * (x.ndim - 2)
    exact = ((x.astype(np.float64) - mean.reshape(view)) / np.sqrt(var.reshape(view) + 1e-5)
             * weight.reshape(view) + bias.reshape(view))
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, exact, rtol=4e-7, atol=4e-7)


def test_eval_batch_norm_float16_and_float64_keep_their_dtype():
    x, mean, var, weight, bias = _case((4, 3, 2, 2), 0)
    for dtype in (tapegrad.float16, tapegrad.float64):
        out = TF.batch_norm(tapegrad.tensor(x).to(dtype), tapegrad.tensor(mean).to(dtype),
                            tapegrad.tensor(var).to(dtype), tapegrad.tensor(weight).to(dtype),
                            tapegrad.tensor(bias).to(dtype))
        reference = TF.batch_norm(tapegrad.tensor(x), tapegrad.tensor(mean),
                                  tapegrad.tensor(var), tapegrad.tensor(weight),
                                  tapegrad.tensor(bias))
        assert out.dtype == dtype
        np.testing.assert_allclose(out.double().numpy(), reference.double().numpy(), rtol=2e-3,
                                   atol=2e-3)


def test_eval_batch_norm_gradcheck():
    x, mean, var, weight, bias = (tapegrad.tensor(a.astype(np.float64)) for a in _case((3, 4, 5), 1))
    inputs = [t.requires_grad_() for t in (x, weight, bias)]
    assert tapegrad.autograd.gradcheck(
        lambda x_, w_, b_: TF.batch_norm(x_, mean, var, w_, b_, False, 0.1, 1e-3), inputs)


def test_eval_batch_norm_float32_gradients_flow():
    x, mean, var, weight, bias = _case((4, 3, 2, 2), 0)
    xt = tapegrad.tensor(x, requires_grad=True)
    wt = tapegrad.tensor(weight, requires_grad=True)
    out = TF.batch_norm(xt, tapegrad.tensor(mean), tapegrad.tensor(var), wt,
                        tapegrad.tensor(bias))
    assert type(out.grad_fn).__name__ == "NativeBatchNormBackward0"
    out.sum().backward()
    view = (1, -1, 1, 1)
    np.testing.assert_allclose(xt.grad.numpy(), np.broadcast_to(
        weight.reshape(view) / np.sqrt(var.reshape(view) + 1e-5), x.shape), rtol=1e-6)
    np.testing.assert_allclose(wt.grad.numpy(), ((x - mean.reshape(view)) / np.sqrt(
        var.reshape(view) + 1e-5)).sum(axis=(0, 2, 3)), rtol=1e-5)


# --- average pooling of float16 (latent-diffusion UNets run in half precision) ----------------
# ATen sums each window in float32 and rounds the mean once; numpy's float16 sum rounded at
# every step. And ATen has no float16 avg_pool3d on the CPU.

def _half_input(shape, seed=0):
    values = np.sin(np.arange(np.prod(shape)) * (0.7 + 0.1 * seed)) * (1 + seed)
    return values.astype(np.float16).reshape(shape)


HALF_POOLS = [
    lambda lib, x: lib.nn.functional.avg_pool2d(x, 2),
    lambda lib, x: lib.nn.functional.avg_pool2d(x, 3, 1, 1),
    lambda lib, x: lib.nn.functional.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
    lambda lib, x: lib.nn.functional.avg_pool2d(x, 2, divisor_override=3),
    lambda lib, x: lib.nn.functional.avg_pool1d(x[0], 3),
    lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, (2, 3)),
    lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, 1),
]


@needs_torch
@pytest.mark.parametrize("pool", range(len(HALF_POOLS)))
def test_float16_average_pooling_equals_torch_bitwise(pool):
    for shape, seed in (((2, 3, 4, 6), 0), ((1, 2, 7, 9), 1), ((2, 3, 4, 6), 2)):
        x = _half_input(shape, seed)
        ours = HALF_POOLS[pool](tapegrad, tapegrad.tensor(x))
        theirs = HALF_POOLS[pool](torch, torch.tensor(x))
        assert ours.dtype == tapegrad.float16
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("pool", range(len(HALF_POOLS)))
def test_float16_average_pooling_is_the_rounded_float32_mean(pool):
    x = _half_input((2, 3, 4, 6), 1)
    half = HALF_POOLS[pool](tapegrad, tapegrad.tensor(x)).numpy()
    single = HALF_POOLS[pool](tapegrad, tapegrad.tensor(x.astype(np.float32))).numpy()
    np.testing.assert_array_equal(half, single.astype(np.float16))


def test_float16_avg_pool3d_is_not_implemented_on_cpu():
    x = tapegrad.zeros(1, 2, 4, 4, 4, dtype=tapegrad.float16)
    with pytest.raises(NotImplementedError,
                       match="\"avg_pool3d_out_frame\" not implemented for 'Half'"):
        tapegrad.nn.functional.avg_pool3d(x, 2)
    assert tapegrad.nn.functional.avg_pool3d(x.float(), 2).shape == (1, 2, 2, 2, 2)


# --- float16 convolutions (fp16 UNet inference) ---------------------------------------------
# ATen's oneDNN kernels compute a float16 convolution (and its input and weight gradients) in
# float32, rounding the result once; numpy's float16 matmul rounded along the way.

CONVS = [(1, 4, 3, 1, 1), (4, 4, 3, 1, 1), (8, 1, 3, 1, 1), (4, 8, 4, 1, 2)]


def _half_conv_operands(cin, cout, k, size=8):
    x = np.sin(np.arange(2 * cin * size * size) * 0.31).astype(np.float16)
    w = (np.cos(np.arange(cout * cin * k * k) * 0.73) * 0.4).astype(np.float16)
    b = (np.cos(np.arange(cout) * 0.5) * 0.1).astype(np.float16)
    return x.reshape(2, cin, size, size), w.reshape(cout, cin, k, k), b


def _conv_and_grads(lib, x, w, b, pad, stride, absolute=False):
    """``absolute``: with the cotangent's magnitudes too, so that, given the operands'
    magnitudes, each result is the sum of its terms' magnitudes."""
    x, w, b = (lib.tensor(a).requires_grad_() for a in (x, w, b))
    y = lib.nn.functional.conv2d(x, w, b, stride=stride, padding=pad)
    yt = lib.nn.functional.conv_transpose2d(x, w.detach().transpose(0, 1).contiguous(),
                                            stride=stride, padding=pad)
    g = np.cos(np.arange(y.numel()) * 0.37).astype(np.float16)
    g = lib.tensor(np.abs(g) if absolute else g).reshape(y.shape)
    gx, gw = lib.autograd.grad(y, (x, w), g)
    return [t.detach().numpy() for t in (y, yt, gx, gw)]


def _mostly_equal(ours, theirs):
    # float32 sums in another order round differently now and then: by one half-ulp, rarely
    return np.allclose(ours, theirs, rtol=1e-3, atol=1e-4) and np.mean(ours == theirs) > 0.95


@needs_torch
@pytest.mark.parametrize("geometry", CONVS)
def test_float16_convolution_equals_torch_bitwise(geometry):
    """PyTorch's float32 result rounded once; its float16 one where its kernel rounds so, as
    oneDNN's do (its native kernels, which run float16 on CPUs without oneDNN float16 support,
    add float16 partial sums)."""
    cin, cout, k, pad, stride = geometry
    x, w, b = _half_conv_operands(cin, cout, k)
    ours = _conv_and_grads(tapegrad, x, w, b, pad, stride)
    theirs = _conv_and_grads(torch, x, w, b, pad, stride)
    single = _conv_and_grads(torch, *(a.astype(np.float32) for a in (x, w, b)), pad, stride)
    exact = _conv_and_grads(torch, *(a.astype(np.float64) for a in (x, w, b)), pad, stride)
    magnitude = _conv_and_grads(torch, *(np.abs(a).astype(np.float64) for a in (x, w, b)), pad,
                                stride, absolute=True)
    assert all(a.dtype == np.float16 for a in ours)
    for a, b, s, e, m in zip(ours, theirs, single, exact, magnitude):
        assert _mostly_equal(a, s.astype(np.float16))
        # rounded once (u = 2**-11) from float32 sums of at most 128 terms (2**-17 m at most)
        assert np.all(np.abs(a - e) <= 2.0 ** -11 * np.abs(e) + 2.0 ** -16 * m + 2.0 ** -25)
        if _mostly_equal(b, s.astype(np.float16)):
            assert _mostly_equal(a, b)
        else:  # up to k * k float16 roundings in PyTorch's sums, one in each result
            assert np.all(np.abs(a - b.astype(np.float64)) <= (k * k + 2) * 2.0 ** -11 * m)


@pytest.mark.parametrize("geometry", CONVS)
def test_float16_convolution_is_the_rounded_float32_one(geometry):
    cin, cout, k, pad, stride = geometry
    x, w, b = _half_conv_operands(cin, cout, k)
    half = _conv_and_grads(tapegrad, x, w, b, pad, stride)
    single = _conv_and_grads(tapegrad, *(a.astype(np.float32) for a in (x, w, b)), pad, stride)
    for h, s in zip(half, single):
        np.testing.assert_array_equal(h, s.astype(np.float16))


# --- float16 normalisation gradients --------------------------------------------------------
# ATen's kernels save the mean and inverse standard deviation in the parameters' dtype (float16
# for a .half() model, float32 for float32 parameters of a float16 input, "mixed") and compute
# the gradients from those saved values.

def _norm_layer(lib, kind):
    return {"group": lambda: lib.nn.GroupNorm(3, 3), "layer": lambda: lib.nn.LayerNorm(6),
            "batch": lambda: lib.nn.BatchNorm2d(3)}[kind]()


def _half_norm_gradients(lib, kind, half_parameters):
    layer = _norm_layer(lib, kind)
    if half_parameters:
        layer = layer.half()
    x = lib.tensor(_half_input((4, 3, 5, 6), 1)).requires_grad_()
    y = layer(x)
    g = lib.tensor(np.cos(np.arange(y.numel()) * 0.37).astype(np.float16)).reshape(y.shape)
    return [t.numpy() for t in lib.autograd.grad(y, (x, layer.weight), g)]


@needs_torch
@pytest.mark.parametrize("kind", ["group", "layer", "batch"])
@pytest.mark.parametrize("half_parameters", [True, False])
def test_float16_normalization_gradients_match_torch(kind, half_parameters):
    """The input's gradient (the weight's sums many float16 products, in another order)."""
    (ours, ours_w), (theirs, theirs_w) = (_half_norm_gradients(lib, kind, half_parameters)
                                          for lib in (tapegrad, torch))
    assert ours.dtype == theirs.dtype == np.float16 and ours_w.dtype == theirs_w.dtype
    np.testing.assert_allclose(ours.astype(np.float64), theirs.astype(np.float64), rtol=2e-3,
                               atol=2e-3)
    assert np.mean(ours == theirs) > 0.95


def test_float16_group_norm_gradient_uses_float16_statistics():
    """The input gradient equals the float32 formula evaluated at float16-rounded statistics."""
    x = _half_input((2, 4, 3, 3), 2)
    g = np.cos(np.arange(x.size) * 0.37).astype(np.float16).reshape(x.shape)
    xt = tapegrad.tensor(x, requires_grad=True)
    (ours,) = tapegrad.autograd.grad(TF.group_norm(xt, 2), xt, tapegrad.tensor(g))
    X = x.astype(np.float32).reshape(2, 2, -1)
    G = g.astype(np.float32).reshape(2, 2, -1)
    mean = X.mean(-1, keepdims=True).astype(np.float16).astype(np.float32)
    rstd = (1 / np.sqrt(((X - X.mean(-1, keepdims=True)) ** 2).mean(-1, keepdims=True) + 1e-5))
    rstd = rstd.astype(np.float16).astype(np.float32)
    normalized = (X - mean) * rstd
    expected = rstd * (G - G.mean(-1, keepdims=True)
                       - normalized * (G * normalized).mean(-1, keepdims=True))
    np.testing.assert_allclose(ours.numpy().astype(np.float32),
                               expected.reshape(x.shape).astype(np.float16).astype(np.float32),
                               atol=2e-3)


def test_float16_normalization_double_backward_still_works():
    x = tapegrad.tensor(_half_input((2, 3, 4), 0).astype(np.float64), requires_grad=True)
    layer = tapegrad.nn.GroupNorm(3, 3).double()
    assert tapegrad.autograd.gradgradcheck(lambda t: layer(t).sin(), (x,))
