"""3-D convolution and pooling (and the rank-generic primitives under the 1-D and 2-D forms),
LP pooling, and the nn layers PyTorch programs use that tapegrad lacked (BatchNorm3d, lazy
norms, alpha dropout, local response norm, Softmax2d, MultiLabelMarginLoss, in-place functional
activations, Buffer, RNNBase) against PyTorch: values, gradients, grad_fn names, reprs,
state_dict keys and error messages; new primitives against finite differences in float64."""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.nn import functional as F

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _normal(*shape):
    return RNG.standard_normal(shape)


def _pair_of(arrays, requires_grad=True):
    """The same float64 data as tapegrad and as PyTorch tensors."""
    ours = [tapegrad.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
            for a in arrays]
    theirs = [torch.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
              for a in arrays]
    return ours, theirs


def _matches(fn, *arrays, name=None):
    """``fn(F, *tensors)`` with both libraries: same output (the first, of a pair), same
    gradients for a random upstream gradient, same grad_fn name."""
    ours, theirs = _pair_of(arrays)
    out, expected = fn(F, *ours), fn(torch.nn.functional, *theirs)
    if isinstance(expected, tuple):
        np.testing.assert_array_equal(out[1].numpy(), expected[1].numpy())
        out, expected = out[0], expected[0]
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=1e-10)
    assert out.grad_fn.name() == expected.grad_fn.name()
    if name is not None:
        assert out.grad_fn.name() == name
    upstream = RNG.standard_normal(expected.shape)
    (out * tapegrad.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    for a, b in zip(ours, theirs):
        if b.requires_grad:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-10)


def _same_error(fn, *arrays):
    """``fn(F, library, *tensors)`` fails in both libraries with the same exception type and
    message."""
    ours, theirs = _pair_of(arrays, requires_grad=False)
    with pytest.raises(Exception) as expected:
        fn(torch.nn.functional, torch, *theirs)
    with pytest.raises(expected.type) as got:
        fn(F, tapegrad, *ours)
    assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------------------- convolution

@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(stride=(1, 2, 1), padding=(1, 0, 2), dilation=(2, 1, 1), groups=2),
    dict(padding="same", dilation=(1, 2, 1)),
    dict(padding="valid", stride=2),
])
def test_conv3d_matches_pytorch(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's note on even kernels with padding="same"
        _matches(lambda F, x, w, b: F.conv3d(x, w, b, **kwargs), _normal(2, 4, 5, 6, 5),
                 _normal(6, 4 // kwargs.get("groups", 1), 2, 3, 2), _normal(6),
                 name="ConvolutionBackward0")


def test_conv3d_unbatched_and_integer_matches_pytorch():
    _matches(lambda F, x, w: F.conv3d(x, w, stride=2), _normal(2, 5, 5, 4), _normal(3, 2, 2, 2, 2),
             name="SqueezeBackward1")
    x, w = RNG.integers(-3, 3, (1, 2, 3, 3, 3)), RNG.integers(-3, 3, (2, 2, 2, 2, 2))
    np.testing.assert_array_equal(F.conv3d(tapegrad.tensor(x), tapegrad.tensor(w)).numpy(),
                                  torch.nn.functional.conv3d(torch.tensor(x),
                                                             torch.tensor(w)).numpy())


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(stride=(2, 1, 3), padding=(1, 0, 1), output_padding=(1, 0, 2), groups=2,
         dilation=(1, 2, 1)),
    dict(stride=2, output_padding=1),
])
def test_conv_transpose3d_matches_pytorch(kwargs):
    _matches(lambda F, x, w, b: F.conv_transpose3d(x, w, b, **kwargs), _normal(2, 4, 3, 4, 3),
             _normal(4, 3, 3, 2, 2), _normal(3 * kwargs.get("groups", 1)),
             name="ConvolutionBackward0")


def test_conv3d_gradcheck():
    x = tapegrad.tensor(_normal(1, 2, 2, 3, 2), requires_grad=True)
    w = tapegrad.tensor(_normal(2, 1, 2, 2, 1), requires_grad=True)
    b = tapegrad.tensor(_normal(2), requires_grad=True)
    assert gradgradcheck(lambda x, w, b: F.conv3d(x, w, b, padding=(1, 0, 1), groups=2),
                         (x, w, b))
    assert gradcheck(lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2, output_padding=1,
                                                        groups=2), (x, w, b))


def test_conv1d_is_direct_and_keeps_double_backward():
    x = tapegrad.tensor(_normal(2, 2, 7), requires_grad=True)
    w = tapegrad.tensor(_normal(4, 1, 3), requires_grad=True)
    assert gradgradcheck(lambda x, w: F.conv1d(x, w, stride=2, padding=2, groups=2), (x, w))
    _matches(lambda F, x, w: F.conv1d(x, w, dilation=2, padding="same"), _normal(2, 3, 8),
             _normal(4, 3, 3), name="ConvolutionBackward0")


@pytest.mark.parametrize("fn", [
    lambda F, t, x, w: F.conv3d(x[0, 0], w),
    lambda F, t, x, w: F.conv3d(x, w[0]),
    lambda F, t, x, w: F.conv3d(x, w, stride=(1, 1)),
    lambda F, t, x, w: F.conv2d(x[0], w[0], stride=(1, 1, 1)),
    lambda F, t, x, w: F.conv2d(x[0], w[0], padding=(1, 2, 3)),
    lambda F, t, x, w: F.conv1d(x[0, :, 0], w[0, :, 0], stride=(1, 1)),
    lambda F, t, x, w: F.conv3d(x, w, padding="same", stride=2),
    lambda F, t, x, w: F.conv3d(x, w, padding="middle"),
    lambda F, t, x, w: F.conv3d(x, w, dilation=0),
    lambda F, t, x, w: F.conv3d(x, w, stride=0),
    lambda F, t, x, w: F.conv3d(x, w, padding=-1),
    lambda F, t, x, w: F.conv3d(x, w, groups=0),
    lambda F, t, x, w: F.conv3d(x, w, groups=3),
    lambda F, t, x, w: F.conv3d(x[:, :, :1], w),
    lambda F, t, x, w: F.conv3d(x.bool(), w.bool()),
    lambda F, t, x, w: F.conv3d(x, w.float()),
    lambda F, t, x, w: F.conv_transpose3d(x, w, padding="same"),
    lambda F, t, x, w: F.conv_transpose3d(x, w, dilation=0),
    lambda F, t, x, w: F.conv_transpose3d(x, w, stride=2, output_padding=2),
    lambda F, t, x, w: F.conv_transpose3d(x, w, output_padding=-1),
    lambda F, t, x, w: F.conv_transpose3d(x, w, padding=5),
    lambda F, t, x, w: F.conv_transpose3d(x.int(), w.int()),
    lambda F, t, x, w: F.conv_transpose1d(x[0, :, 0], w[:, :, 0, 0], stride=2,
                                          output_padding=2),
    lambda F, t, x, w: F.conv1d(x[:, :, 0, 0], w[..., 0, 0], dilation=0),
])
def test_conv_errors_match_pytorch(fn):
    _same_error(fn, _normal(2, 4, 4, 5, 5), _normal(4, 4, 2, 3, 3))


def test_conv3d_modules_match_pytorch():
    for make in (lambda m: m.Conv3d(4, 6, 3, padding=(1, 2, 3), padding_mode="circular"),
                 lambda m: m.Conv3d(4, 6, (3, 1, 2), stride=2, dilation=2, groups=2,
                                    bias=False),
                 lambda m: m.ConvTranspose3d(4, 6, 3, stride=2, output_padding=1, dilation=2,
                                             groups=2),
                 lambda m: m.LazyConv3d(6, 3), lambda m: m.LazyConvTranspose3d(6, 3)):
        ours, theirs = make(nn), make(torch.nn)
        assert repr(ours) == repr(theirs)
        assert list(ours.state_dict()) == list(theirs.state_dict())
    for mode in ("zeros", "reflect", "replicate", "circular"):
        for padding in ((1, 2, 0), "same"):
            ours = nn.Conv3d(2, 3, (3, 2, 3), padding=padding, padding_mode=mode,
                             dtype=tapegrad.float64)
            theirs = torch.nn.Conv3d(2, 3, (3, 2, 3), padding=padding, padding_mode=mode,
                                     dtype=torch.float64)
            theirs.load_state_dict({k: torch.tensor(v.numpy())
                                    for k, v in ours.state_dict().items()})
            x = _normal(2, 2, 4, 5, 4)
            np.testing.assert_allclose(ours(tapegrad.tensor(x)).detach().numpy(),
                                       theirs(torch.tensor(x)).detach().numpy(), atol=1e-10)


def test_conv_transpose3d_output_size_and_lazy_materialization():
    layer = nn.ConvTranspose3d(3, 2, 3, stride=2, padding=1)
    assert layer(tapegrad.ones(1, 3, 4, 4, 4), output_size=(8, 7, 8)).shape == (1, 2, 8, 7, 8)
    lazy = nn.LazyConv3d(5, 2)
    assert lazy(tapegrad.ones(2, 3, 4, 4, 4)).shape == (2, 5, 3, 3, 3)
    assert type(lazy) is nn.Conv3d and lazy.weight.shape == (5, 3, 2, 2, 2)
    lazy = nn.LazyConvTranspose3d(5, 2)
    assert lazy(tapegrad.ones(3, 4, 4, 4)).shape == (5, 5, 5, 5)
    assert type(lazy) is nn.ConvTranspose3d and lazy.weight.shape == (3, 5, 2, 2, 2)


# -------------------------------------------------------------------------------- pooling

@pytest.mark.parametrize("kwargs", [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=(2, 3, 2), stride=(1, 2, 2), dilation=(2, 1, 1), padding=(1, 1, 0)),
])
def test_max_pool3d_matches_pytorch(kwargs):
    _matches(lambda F, x: F.max_pool3d(x, **kwargs), _normal(2, 3, 5, 6, 7),
             name="MaxPool3DWithIndicesBackward0")
    _matches(lambda F, x: F.max_pool3d(x, return_indices=True, **kwargs), _normal(3, 5, 6, 7))
    _matches(lambda F, x: F.max_pool3d_with_indices(x, **kwargs), _normal(1, 2, 5, 6, 7))


def test_with_indices_functions_match_pytorch():
    _matches(lambda F, x: F.max_pool1d_with_indices(x, 3, 2, 1), _normal(2, 3, 8),
             name="SqueezeBackward1")
    _matches(lambda F, x: F.max_pool2d_with_indices(x, 2, ceil_mode=True), _normal(2, 3, 5, 5),
             name="MaxPool2DWithIndicesBackward0")
    for n in (1, 2, 3):
        _matches(lambda F, x: getattr(F, f"adaptive_max_pool{n}d_with_indices")(x, 3),
                 _normal(2, 3, *(5,) * n))


@pytest.mark.parametrize("kwargs", [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    dict(kernel_size=(2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0), divisor_override=5),
])
def test_avg_pool3d_matches_pytorch(kwargs):
    _matches(lambda F, x: F.avg_pool3d(x, **kwargs), _normal(2, 3, 5, 6, 7),
             name="AvgPool3DBackward0")
    _matches(lambda F, x: F.avg_pool3d(x, **kwargs), _normal(3, 5, 6, 7))


def test_avg_pool_records_pytorchs_nodes_and_double_backward():
    _matches(lambda F, x: F.avg_pool2d(x, 3, 2, 1, True, False), _normal(2, 3, 6, 7),
             name="AvgPool2DBackward0")
    _matches(lambda F, x: F.avg_pool1d(x, 3, 2, 1, True), _normal(2, 3, 7),
             name="SqueezeBackward1")
    x = tapegrad.tensor(_normal(1, 2, 3, 2, 3), requires_grad=True)
    (grad,) = tapegrad.autograd.grad(F.avg_pool3d(x, 2).sum(), x, create_graph=True)
    assert grad.grad_fn.name() == "AvgPool3DBackwardBackward0"
    for fn in (lambda x: F.avg_pool3d(x, 2, 1, 1, True, False),
               lambda x: F.avg_pool2d(x[0], 2, 1, 1, divisor_override=3)):
        assert gradcheck(fn, (x,))
        assert gradgradcheck(lambda x: fn(x) ** 2, (x,))


def test_adaptive_and_unpool3d_match_pytorch():
    _matches(lambda F, x: F.adaptive_avg_pool3d(x, (2, None, 3)), _normal(2, 3, 5, 6, 7),
             name="AdaptiveAvgPool3DBackward0")
    _matches(lambda F, x: F.adaptive_avg_pool3d(x, 1), _normal(3, 5, 6, 7),
             name="MeanBackward1")
    _matches(lambda F, x: F.adaptive_max_pool3d(x, (2, 4, 3)), _normal(2, 3, 5, 6, 7),
             name="AdaptiveMaxPool3DBackward0")
    _matches(lambda F, x: F.adaptive_max_pool3d(x, 3, return_indices=True), _normal(3, 5, 6, 7))
    _matches(lambda F, x: F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2,
                                         output_size=(5, 7, 7)), _normal(2, 3, 5, 6, 7),
             name="MaxUnpool3DBackward0")


def test_pool3d_gradcheck():
    x = tapegrad.tensor(_normal(1, 2, 4, 3, 3), requires_grad=True)
    assert gradcheck(lambda x: F.max_pool3d(x, 2, padding=1), (x,))
    assert gradcheck(lambda x: F.adaptive_max_pool3d(x, (3, 2, 2)), (x,))
    assert gradgradcheck(lambda x: F.adaptive_avg_pool3d(x, (3, 2, 2)) ** 2, (x,))
    values, indices = F.max_pool3d(x, 2, return_indices=True)
    values = values.detach().requires_grad_()
    assert gradcheck(lambda v: F.max_unpool3d(v, indices, 2, output_size=(4, 3, 3)), (values,))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_lp_pool_matches_pytorch(n):
    _matches(lambda F, x: getattr(F, f"lp_pool{n}d")(x, 2, 2), _normal(2, 3, *(5,) * n),
             name="PowBackward0")
    _matches(lambda F, x: getattr(F, f"lp_pool{n}d")(x, 3.0, 3, 2, True), _normal(3, *(6,) * n))


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.max_pool3d(x[0, 0], 2),
    lambda F, t, x: F.max_pool3d(x, 2, padding=2),
    lambda F, t, x: F.max_pool3d(x, 7),
    lambda F, t, x: F.max_pool3d(x, (2, 2)),
    lambda F, t, x: F.max_pool3d(x, 2, stride=(1, 2)),
    lambda F, t, x: F.max_pool3d(x, 2, padding=(1, 1)),
    lambda F, t, x: F.max_pool3d(x, 2, dilation=(1, 1)),
    lambda F, t, x: F.max_pool3d(x, 2, stride=0),
    lambda F, t, x: F.max_pool3d(x, 2, dilation=0),
    lambda F, t, x: F.max_pool2d(x[0], 2, dilation=0),
    lambda F, t, x: F.max_pool2d(x[0], (2, 2, 2)),
    lambda F, t, x: F.avg_pool3d(x[0, 0], 2),
    lambda F, t, x: F.avg_pool3d(x, 2, padding=2),
    lambda F, t, x: F.avg_pool3d(x, 7),
    lambda F, t, x: F.avg_pool3d(x, 2, divisor_override=0),
    lambda F, t, x: F.avg_pool3d(x, 2, stride=0),
    lambda F, t, x: F.avg_pool3d(x, (2, 2)),
    lambda F, t, x: F.avg_pool3d(x, 2, stride=(1, 1)),
    lambda F, t, x: F.avg_pool2d(x[0], (2, 2, 2)),
    lambda F, t, x: F.adaptive_avg_pool3d(x[0, 0], 2),
    lambda F, t, x: F.adaptive_avg_pool3d(x, (2, 2)),
    lambda F, t, x: F.adaptive_avg_pool2d(x[0], (2, 2, 2)),
    lambda F, t, x: F.adaptive_max_pool3d(x[0, 0], 2),
    lambda F, t, x: F.adaptive_max_pool3d(x, (2, 2)),
    lambda F, t, x: F.adaptive_max_pool3d(x, (2, -1, 3)),
    lambda F, t, x: F.adaptive_avg_pool3d(x, (2, -1, 3)),
    lambda F, t, x: F.adaptive_avg_pool2d(x[0], (2, -1)),
    lambda F, t, x: F.adaptive_avg_pool3d(x[:, :, :0], 2),
    lambda F, t, x: F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True)[:1], t.zeros(
        2, 3, 3, 3, 3, dtype=t.int32), 2),
    lambda F, t, x: F.max_unpool3d(x[0, 0], x[0, 0].long(), 2),
    lambda F, t, x: F.max_unpool3d(x, (x == x.max()).long() * 5000, 2),
    lambda F, t, x: F.max_unpool3d(x, x.long(), 2, output_size=(20, 12, 12)),
])
def test_pool_errors_match_pytorch(fn):
    _same_error(fn, _normal(2, 3, 6, 6, 6))


def test_pool3d_modules_match_pytorch():
    for make in (lambda m: m.MaxPool3d(2),
                 lambda m: m.MaxPool3d((2, 3, 1), stride=1, padding=1, dilation=2,
                                       return_indices=True, ceil_mode=True),
                 lambda m: m.AvgPool3d(2),
                 lambda m: m.AvgPool3d((2, 2, 2), stride=1, padding=1, ceil_mode=True,
                                       count_include_pad=False, divisor_override=3),
                 lambda m: m.AdaptiveAvgPool3d((2, None, 3)),
                 lambda m: m.AdaptiveMaxPool3d(2, True), lambda m: m.MaxUnpool3d(2),
                 lambda m: m.MaxUnpool3d((2, 1, 2), stride=1, padding=(1, 0, 0)),
                 lambda m: m.LPPool1d(2, 3), lambda m: m.LPPool2d(1.5, (2, 3), stride=1,
                                                                  ceil_mode=True),
                 lambda m: m.LPPool3d(2, 2)):
        ours, theirs = make(nn), make(torch.nn)
        assert repr(ours) == repr(theirs)
    x = _normal(2, 3, 6, 6, 6)
    for make in (lambda m: m.AvgPool3d(3, 2, 1, ceil_mode=True), lambda m: m.LPPool3d(2, 2),
                 lambda m: m.AdaptiveMaxPool3d((2, 3, 1)), lambda m: m.MaxPool3d(3, 2, 1)):
        np.testing.assert_allclose(make(nn)(tapegrad.tensor(x)).numpy(),
                                   make(torch.nn)(torch.tensor(x)).numpy(), atol=1e-10)


@pytest.mark.parametrize("shape, kernel, output_size, spatial", [
    ((2, 3, 9, 11), 3, (4, 5), 2), ((3, 9, 11), (2, 3), (8, 5), 2), ((1, 2, 5, 5), 2, 1, 2),
    ((2, 3, 7, 8, 9), 2, (3, 4, 5), 3), ((2, 7, 8, 9), (2, 1, 3), (5, 4, 3), 3),
])
def test_fractional_max_pool_matches_pytorch(shape, kernel, output_size, spatial):
    batch = shape[0] if len(shape) == spatial + 2 else 1
    samples = RNG.random((batch, shape[-spatial - 1], spatial))

    def pool(F, x):
        library = tapegrad if F is globals()["F"] else torch
        return getattr(F, f"fractional_max_pool{spatial}d")(
            x, kernel, output_size, return_indices=True, _random_samples=library.tensor(samples))

    _matches(pool, _normal(*shape), name=f"FractionalMaxPool{spatial}DBackward0")


def test_fractional_max_pool_gradcheck_and_modules():
    x = tapegrad.tensor(_normal(1, 2, 5, 6), requires_grad=True)
    samples = tapegrad.tensor(RNG.random((1, 2, 2)))
    assert gradcheck(lambda x: F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5),
                                                       _random_samples=samples), (x,))
    for make in (lambda m: m.FractionalMaxPool2d(3, output_size=5),
                 lambda m: m.FractionalMaxPool3d(2, output_ratio=(0.5, 0.6, 0.7),
                                                 return_indices=True)):
        assert repr(make(nn)) == repr(make(torch.nn))
    assert list(nn.FractionalMaxPool3d(2, output_size=3, _random_samples=tapegrad.rand(
        1, 2, 3)).state_dict()) == ["_random_samples"]
    assert nn.FractionalMaxPool2d(2, output_ratio=0.5)(tapegrad.ones(2, 3, 8, 8)).shape == (
        2, 3, 4, 4)
    for make in (lambda m: m.FractionalMaxPool2d(2, output_ratio=1.5),
                 lambda m: m.FractionalMaxPool2d(2, output_ratio=0.5, output_size=2),
                 lambda m: m.FractionalMaxPool3d(2)):
        with pytest.raises(ValueError) as expected:
            make(torch.nn)
        with pytest.raises(ValueError, match=str(expected.value).replace("(", r"\(").replace(
                ")", r"\)")):
            make(nn)


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.fractional_max_pool2d(x, 3),
    lambda F, t, x: F.fractional_max_pool2d(x, 3, output_size=(6, 6)),
    lambda F, t, x: F.fractional_max_pool2d(x, (3, 2, 1), output_size=4),
    lambda F, t, x: F.fractional_max_pool2d(x, 3, output_size=(4, 4, 4)),
    lambda F, t, x: F.fractional_max_pool2d(x, 3, output_ratio=0.5),
    lambda F, t, x: F.fractional_max_pool2d(x, 3, output_size=4,
                                            _random_samples=t.rand(2, 3, 3, dtype=t.float64)),
    lambda F, t, x: F.fractional_max_pool2d(x, 3, output_size=4,
                                            _random_samples=t.rand(1, 3, 2, dtype=t.float64)),
    lambda F, t, x: F.fractional_max_pool3d(x[0, None], 2, output_size=7),
    lambda F, t, x: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=t.rand(
        2, 3, 2, dtype=t.float64, requires_grad=True)),
])
def test_fractional_max_pool_errors_match_pytorch(fn):
    _same_error(fn, _normal(2, 3, 7, 8))


# ---------------------------------------------------------------------------- normalization

def test_batch_norm3d_and_lazy_norms_match_pytorch():
    for make in (lambda m: m.BatchNorm3d(3), lambda m: m.LazyBatchNorm3d(),
                 lambda m: m.LazyInstanceNorm1d(), lambda m: m.LazyInstanceNorm3d(
                     affine=False, track_running_stats=False)):
        assert repr(make(nn)) == repr(make(torch.nn))
    for make, x in ((lambda m: m.BatchNorm3d(3), _normal(2, 3, 2, 3, 2)),
                    (lambda m: m.LazyBatchNorm3d(), _normal(2, 3, 2, 3, 2)),
                    (lambda m: m.LazyInstanceNorm2d(), _normal(2, 3, 4, 3))):
        ours, theirs = make(nn), make(torch.nn)
        for _ in range(2):
            x = x.astype(np.float32)
            out, expected = ours(tapegrad.tensor(x)), theirs(torch.tensor(x))
        np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=1e-5)
        assert repr(ours) == repr(theirs) and type(ours).__name__ == type(theirs).__name__
        assert list(ours.state_dict()) == list(theirs.state_dict())
        for key, value in theirs.state_dict().items():
            np.testing.assert_allclose(ours.state_dict()[key].numpy(), value.numpy(), atol=1e-5)
    with pytest.raises(ValueError, match=r"expected 5D input \(got 4D input\)"):
        nn.BatchNorm3d(3)(tapegrad.ones(3, 4, 4, 4))


def test_local_response_norm_matches_pytorch():
    for shape in ((2, 5, 4), (2, 6, 3, 3), (1, 4, 2, 3, 2)):
        for size in (2, 3):
            _matches(lambda F, x: F.local_response_norm(x, size, 1e-2, 0.6, 2.0), _normal(*shape),
                     name="DivBackward0")
    assert repr(nn.LocalResponseNorm(2, 1e-3, 0.5, 2.0)) == repr(
        torch.nn.LocalResponseNorm(2, 1e-3, 0.5, 2.0))
    _same_error(lambda F, t, x: F.local_response_norm(x, 3), _normal(2, 3))


def test_cross_map_lrn2d_matches_pytorch_forward():
    for channels, size in ((7, 3), (9, 2), (9, 4), (3, 5), (6, 1)):
        x = _normal(2, channels, 3, 2)
        ours = nn.CrossMapLRN2d(size, 0.5, 0.75, 2)
        theirs = torch.nn.CrossMapLRN2d(size, 0.5, 0.75, 2)
        np.testing.assert_allclose(ours(tapegrad.tensor(x)).numpy(),
                                   theirs(torch.tensor(x)).numpy(), atol=1e-12)
        assert repr(ours) == repr(theirs)
    with pytest.raises(ValueError, match="CrossMapLRN2d: Expected input to be 4D, got 3D"):
        nn.CrossMapLRN2d(3)(tapegrad.ones(2, 3, 4))


# ------------------------------------------------------------------------ dropout, softmax

@pytest.mark.parametrize("feature", [False, True])
def test_alpha_dropout_keeps_selu_statistics(feature):
    tapegrad.manual_seed(0)
    function = F.feature_alpha_dropout if feature else F.alpha_dropout
    x = tapegrad.randn(200, 50, 40, requires_grad=True)
    out = function(x, 0.3, True)
    assert out.grad_fn.name() == "AddBackward0"
    assert abs(out.mean().item()) < 0.05 and abs(out.std().item() - 1) < 0.05
    alpha = 1.7580993408473766
    dropped_value = alpha * (0.3 - 1) / np.sqrt((alpha ** 2 * 0.3 + 1) * 0.7)
    dropped = np.isclose(out.detach().numpy(), dropped_value)
    assert abs(dropped.mean() - 0.3) < 0.05
    if feature:  # whole channels
        assert (dropped.all(-1) | ~dropped.any(-1)).all()
    assert function(x, 0.3, False) is x and function(x, 0.0, True) is x
    assert function(x, 1.0, True).grad_fn.name() == "MulBackward0"
    out.sum().backward()
    assert x.grad is not None


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.alpha_dropout(x, 1.5, True),
    lambda F, t, x: F.feature_alpha_dropout(x[0, 0], 0.5, True),
    lambda F, t, x: F.alpha_dropout(x.requires_grad_(), 0.5, True, inplace=True),
])
def test_alpha_dropout_errors_match_pytorch(fn):
    _same_error(fn, _normal(4, 3, 5))


def test_dropout_and_softmax2d_modules_match_pytorch():
    for make in (lambda m: m.AlphaDropout(0.2), lambda m: m.FeatureAlphaDropout(0.3, True),
                 lambda m: m.Softmax2d()):
        assert repr(make(nn)) == repr(make(torch.nn))
    x = tapegrad.randn(2, 3, 4)
    layer = nn.AlphaDropout(0.5).eval()
    assert layer(x) is x
    _matches(lambda F, x: (nn if F is globals()["F"] else torch.nn).Softmax2d()(x),
             _normal(2, 3, 4, 5), name="SoftmaxBackward0")
    with pytest.raises(ValueError, match="Softmax2d: expected input to be 3D or 4D, got 2D"):
        nn.Softmax2d()(tapegrad.ones(2, 3))


# ------------------------------------------------------------------------------------ losses

def test_multilabel_margin_loss_matches_pytorch():
    target = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 1, 2]])
    for reduction in ("mean", "sum", "none"):
        _matches(lambda F, x, y: F.multilabel_margin_loss(x, y, reduction=reduction),
                 _normal(3, 4), target, name="MultilabelMarginLossBackward0")
        _matches(lambda F, x, y: F.multilabel_margin_loss(x, y, reduction=reduction),
                 _normal(4), target[1])
    x = tapegrad.tensor(_normal(3, 4), requires_grad=True)
    assert gradcheck(lambda x: F.multilabel_margin_loss(x, tapegrad.tensor(target)), (x,))
    ours = nn.MultiLabelMarginLoss(reduction="sum")
    assert repr(ours) == repr(torch.nn.MultiLabelMarginLoss(reduction="sum"))
    np.testing.assert_allclose(ours(x, tapegrad.tensor(target)).item(),
                               torch.nn.MultiLabelMarginLoss(reduction="sum")(
                                   torch.tensor(x.detach().numpy()), torch.tensor(target)).item())


@pytest.mark.parametrize("fn", [
    lambda F, t, x, y: F.multilabel_margin_loss(x, y[:, :3]),
    lambda F, t, x, y: F.multilabel_margin_loss(x, y.float()),
    lambda F, t, x, y: F.multilabel_margin_loss(x, y + 5),
    lambda F, t, x, y: F.multilabel_margin_loss(x[None], y[None]),
    lambda F, t, x, y: F.multilabel_margin_loss(x, y, reduction="foo"),
])
def test_multilabel_margin_loss_errors_match_pytorch(fn):
    _same_error(fn, _normal(2, 4), np.array([[3, 0, -1, 1], [1, 2, 3, -1]]))


# ------------------------------------------------------------------ in-place activations

@pytest.mark.parametrize("name, args", [
    ("relu_", ()), ("elu_", (0.5,)), ("leaky_relu_", (0.2,)), ("hardtanh_", (-0.5, 0.5)),
    ("selu_", ()), ("celu_", (2.0,)), ("threshold_", (0.1, -2.0)), ("threshold_", (0.1, 5.0)),
])
def test_inplace_functional_activations_match_pytorch(name, args):
    data = _normal(3, 4)
    ours, theirs = (tapegrad.tensor(data, requires_grad=True),
                    torch.tensor(data, requires_grad=True))
    out, expected = getattr(F, name)(ours * 1, *args), getattr(torch.nn.functional, name)(
        theirs * 1, *args)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy())
    assert out.grad_fn.name() == expected.grad_fn.name()
    out.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy())
    _same_error(lambda F, t, x: getattr(F, name)(x.requires_grad_(), *args), data)
    plain = tapegrad.tensor(data)
    assert getattr(F, name)(plain, *args) is plain


# --------------------------------------------------------------------- Buffer and RNNBase

def _buffered(library):
    class Holder(library.nn.Module):
        def __init__(self):
            super().__init__()
            self.kept = library.nn.Buffer(library.ones(2))
            self.scratch = library.nn.Buffer(library.zeros(1), persistent=False)
            self.empty = library.nn.Buffer()

    return Holder()


def test_buffer_registers_on_assignment_as_in_pytorch():
    ours, theirs = _buffered(tapegrad), _buffered(torch)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["kept", "empty"]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert isinstance(ours.kept, nn.Buffer) and not isinstance(tapegrad.ones(1), nn.Buffer)
    assert type(ours.kept) is tapegrad.Tensor and ours.empty.shape == (0,)
    ours.kept = tapegrad.zeros(3)  # a plain tensor keeps its place as a buffer
    assert list(ours.state_dict()) == ["kept", "empty"] and ours.kept.shape == (3,)
    assert nn.Buffer(tapegrad.ones(2, requires_grad=True)).requires_grad


def test_rnn_bases_and_uninitialized_are_exported():
    assert isinstance(nn.LSTM(2, 3), nn.RNNBase) and isinstance(nn.GRU(2, 3), nn.RNNBase)
    assert isinstance(nn.RNNCell(2, 3), nn.RNNCellBase)
    assert isinstance(nn.LazyLinear(3).weight, nn.UninitializedParameter)
    assert isinstance(nn.LazyBatchNorm3d().running_mean, nn.UninitializedBuffer)


# ------------------------------------------------------------- dtypes, layouts, edge windows

def test_pooling_integer_inputs_and_lowest_windows_match_pytorch():
    for fn in (lambda F, t: F.max_pool2d(t.arange(16).view(1, 1, 4, 4) - 100, 3, 2, 1,
                                         return_indices=True),
               lambda F, t: F.max_pool3d(t.arange(64).view(1, 1, 4, 4, 4), 2),
               lambda F, t: F.avg_pool3d(t.arange(64).view(1, 1, 4, 4, 4) - 30, 3, 2, 1),
               lambda F, t: F.avg_pool2d(t.arange(16).view(1, 1, 4, 4), 2),
               lambda F, t: F.max_pool2d(t.full((1, 1, 3, 3), float("-inf")), 2, 1, 1,
                                         return_indices=True)):
        ours, theirs = fn(F, tapegrad), fn(torch.nn.functional, torch)
        for a, b in zip(ours if isinstance(ours, tuple) else (ours,),
                        theirs if isinstance(theirs, tuple) else (theirs,)):
            assert a.dtype == getattr(tapegrad, str(b.dtype)[6:])
            np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.max_pool1d(x, 2, padding=2), lambda F, t, x: F.max_pool1d(x, 0),
    lambda F, t, x: F.max_pool1d(x, 2, stride=0), lambda F, t, x: F.max_pool1d(x, 2, dilation=0),
    lambda F, t, x: F.max_pool1d(x, 5), lambda F, t, x: F.max_pool1d(x, 5, return_indices=True),
    lambda F, t, x: F.max_pool1d(x, 2, padding=-1), lambda F, t, x: F.max_pool1d(x.long(), 2),
    lambda F, t, x: F.avg_pool1d(x, 2, padding=2),
    lambda F, t, x: F.max_pool2d(x[None].bool(), 1),
    lambda F, t, x: F.max_pool2d(x[..., None].expand(1, 1, 4, 6), (2, 4), padding=(0, 3)),
])
def test_one_dimensional_pool_errors_match_pytorch(fn):
    _same_error(fn, np.ones((1, 1, 4)))


def test_channels_last_layout_propagates_as_in_pytorch():
    data = np.cos(np.arange(2 * 3 * 6 * 6) * 0.05).reshape(2, 3, 6, 6)
    for fn in (lambda F, t, x: F.conv2d(x, t.ones(4, 3, 3, 3, dtype=t.float64), padding=1),
               lambda F, t, x: F.conv2d(x, t.ones(6, 1, 3, 3, dtype=t.float64), groups=3),
               lambda F, t, x: F.max_pool2d(x, 2), lambda F, t, x: F.avg_pool2d(x, 2),
               lambda F, t, x: F.adaptive_avg_pool2d(x, 2)):
        ours = fn(F, tapegrad, tapegrad.tensor(data).to(memory_format=tapegrad.channels_last))
        theirs = fn(torch.nn.functional, torch,
                    torch.tensor(data).to(memory_format=torch.channels_last))
        assert ours.stride() == theirs.stride()
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-12)
