"""Transposed convolutions, padding modes, unfold/fold, pixel shuffles, adaptive pooling and max
unpooling against PyTorch (values, gradients, grad_fn names, reprs, error messages), and their
primitives against finite differences in float64."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.nn import functional as F

torch = pytest.importorskip("torch")


def _pair_of(arrays, requires_grad=True):
    """The same float64 data as tapegrad and as PyTorch tensors."""
    ours = [tapegrad.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
            for a in arrays]
    theirs = [torch.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
              for a in arrays]
    return ours, theirs


def _matches(fn, *arrays, seed=0, name=None):
    """``fn(F, *tensors)`` with both libraries: same output, same gradients for a random
    upstream gradient, same grad_fn name (``name``, checked against PyTorch's too)."""
    ours, theirs = _pair_of(arrays)
    out, expected = fn(F, *ours), fn(torch.nn.functional, *theirs)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=1e-10)
    assert out.grad_fn.name() == expected.grad_fn.name()
    if name is not None:
        assert out.grad_fn.name() == name
    upstream = np.random.default_rng(seed).standard_normal(expected.shape)
    (out * tapegrad.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    for a, b in zip(ours, theirs):
        if b.requires_grad:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-10)


def _same_error(fn, *arrays):
    """``fn`` fails in both libraries with the same exception type and message."""
    ours, theirs = _pair_of(arrays, requires_grad=False)
    with pytest.raises(Exception) as expected:
        fn(torch.nn.functional, torch, *theirs)
    with pytest.raises(expected.type) as got:
        fn(F, tapegrad, *ours)
    assert str(got.value) == str(expected.value)


RNG = np.random.default_rng(0)


def _normal(*shape):
    return RNG.standard_normal(shape)


# --------------------------------------------------------------------- transposed convolution

TRANSPOSED_2D = [
    dict(),
    dict(stride=2),
    dict(stride=2, padding=1, output_padding=1),
    dict(stride=3, padding=1, output_padding=2),
    dict(dilation=2, stride=2, output_padding=1),
    dict(stride=1, dilation=3, output_padding=2),  # output padding past the stride
    dict(groups=2, stride=(2, 1), padding=(1, 0)),
]


@pytest.mark.parametrize("kwargs", TRANSPOSED_2D, ids=str)
def test_conv_transpose2d_matches_pytorch(kwargs):
    groups = kwargs.get("groups", 1)
    _matches(lambda F, x, w, b: F.conv_transpose2d(x, w, b, **kwargs),
             _normal(2, 4, 4, 5), _normal(4, 3, 3, 2), _normal(3 * groups),
             name="ConvolutionBackward0")


@pytest.mark.parametrize("kwargs", [dict(), dict(stride=2, padding=1, output_padding=1, groups=2),
                                    dict(dilation=2, stride=3, output_padding=2)], ids=str)
def test_conv_transpose1d_matches_pytorch(kwargs):
    _matches(lambda F, x, w: F.conv_transpose1d(x, w, **kwargs), _normal(2, 4, 6),
             _normal(4, 3, 3), name="ConvolutionBackward0")


def test_conv_transpose_unbatched_matches_pytorch():
    _matches(lambda F, x, w: F.conv_transpose2d(x, w, stride=2), _normal(4, 3, 3),
             _normal(4, 2, 2, 2), name="SqueezeBackward1")
    _matches(lambda F, x, w: F.conv_transpose1d(x, w, stride=2), _normal(4, 3),
             _normal(4, 2, 2), name="SqueezeBackward1")


def test_conv_transpose_gradcheck():
    x = tapegrad.tensor(_normal(1, 2, 3, 3), requires_grad=True)
    w = tapegrad.tensor(_normal(2, 2, 2, 3), requires_grad=True)
    b = tapegrad.tensor(_normal(2), requires_grad=True)
    for kwargs in (dict(stride=2, padding=1, output_padding=1), dict(dilation=2, output_padding=1)):
        def fn(x, w, b, kwargs=kwargs):
            return F.conv_transpose2d(x, w, b, **kwargs)
        assert gradcheck(fn, (x, w, b))
        assert gradgradcheck(fn, (x, w, b))
    signal = tapegrad.tensor(_normal(2, 2, 4), requires_grad=True)
    kernel = tapegrad.tensor(_normal(2, 1, 3), requires_grad=True)
    assert gradcheck(lambda x, w: F.conv_transpose1d(x, w, stride=2, groups=2), (signal, kernel))


@pytest.mark.parametrize("fn", [
    lambda F, t, x, w: F.conv_transpose2d(x, w[:3]),
    lambda F, t, x, w: F.conv_transpose2d(x, w, output_padding=1),
    lambda F, t, x, w: F.conv_transpose2d(x[0, 0], w),
    lambda F, t, x, w: F.conv_transpose2d(x, w, groups=3),
    lambda F, t, x, w: F.conv_transpose2d(x, w, t.ones(3, dtype=t.float64)),
    lambda F, t, x, w: F.conv_transpose2d(x, w, stride=0),
    lambda F, t, x, w: F.conv_transpose2d(x, w, padding=-1),
    lambda F, t, x, w: F.conv_transpose2d(x, w, padding="same"),
    lambda F, t, x, w: F.conv_transpose2d(x, w.float()),
    lambda F, t, x, w: F.conv_transpose1d(x[0], w[..., 0], output_padding=1),
])
def test_conv_transpose_errors_match_pytorch(fn):
    _same_error(fn, _normal(2, 4, 5, 5), _normal(4, 2, 3, 3))


def test_conv_transpose_module():
    layer = nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1, groups=2,
                               dilation=(1, 2))
    assert tuple(layer.weight.shape) == (4, 3, 3, 2)
    assert [name for name, _ in layer.named_parameters()] == ["weight", "bias"]
    twin = torch.nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1,
                                    groups=2, dilation=(1, 2))
    assert repr(layer) == repr(twin)
    bound = 1 / np.sqrt(3 * 3 * 2)  # fan_in of the (in, out/groups, k...) weight: out/groups * k
    assert np.abs(layer.weight.detach().numpy()).max() <= bound
    assert np.abs(layer.bias.detach().numpy()).max() <= bound
    assert repr(nn.ConvTranspose1d(2, 4, 3, bias=False)) == repr(
        torch.nn.ConvTranspose1d(2, 4, 3, bias=False))
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for '
                                         'ConvTranspose2d'):
        nn.ConvTranspose2d(1, 1, 3, padding_mode="reflect")


def test_conv_transpose_output_size():
    ours = nn.ConvTranspose2d(3, 1, 3, stride=2, padding=1)
    theirs = torch.nn.ConvTranspose2d(3, 1, 3, stride=2, padding=1)
    z = np.ones((1, 3, 4, 4))
    for size in ([7, 7], [8, 8], [1, 1, 8, 7]):
        assert tuple(ours(tapegrad.tensor(z).float(), output_size=size).shape) == tuple(
            theirs(torch.tensor(z).float(), output_size=size).shape)
    for size in ([10, 10], [1, 8]):
        with pytest.raises(ValueError) as expected:
            theirs(torch.tensor(z).float(), output_size=size)
        with pytest.raises(ValueError) as got:
            ours(tapegrad.tensor(z).float(), output_size=size)
        assert str(got.value) == str(expected.value)


# ------------------------------------------------------------------------------ padding modes

@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_conv_padding_modes_match_pytorch(mode):
    for make, shape in ((lambda m: m.Conv2d(2, 3, 3, padding=(1, 2), padding_mode=mode),
                         (2, 2, 4, 5)),
                        (lambda m: m.Conv2d(2, 3, 3, padding="same", padding_mode=mode),
                         (2, 4, 5)),
                        (lambda m: m.Conv1d(2, 3, 4, padding=2, padding_mode=mode), (2, 2, 6))):
        ours, theirs = make(nn).double(), make(torch.nn).double()
        with torch.no_grad():
            for p, q in zip(ours.parameters(), theirs.parameters()):
                q.copy_(torch.tensor(p.detach().numpy()))
        assert repr(ours) == repr(theirs)
        data = _normal(*shape)
        x, y = tapegrad.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
        out, expected = ours(x), theirs(y)
        np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=1e-10)
        (out ** 2).sum().backward()
        (expected ** 2).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), y.grad.numpy(), atol=1e-10)
        np.testing.assert_allclose(ours.weight.grad.numpy(), theirs.weight.grad.numpy(),
                                   atol=1e-10)


def test_conv_bad_padding_mode():
    with pytest.raises(ValueError, match="padding_mode must be one of .* but got "
                                         "padding_mode='foo'"):
        nn.Conv2d(1, 1, 3, padding_mode="foo")


# ------------------------------------------------------------------------------- unfold, fold

FOLDS = [dict(kernel_size=2), dict(kernel_size=(2, 3), dilation=(2, 1), padding=1, stride=(2, 1))]


@pytest.mark.parametrize("kwargs", FOLDS, ids=str)
@pytest.mark.parametrize("batched", [True, False])
def test_unfold_fold_match_pytorch(kwargs, batched):
    image = _normal(2, 2, 4, 5) if batched else _normal(2, 4, 5)
    _matches(lambda F, x: F.unfold(x, **kwargs), image, name="Im2ColBackward0")
    columns = torch.nn.functional.unfold(torch.tensor(image), **kwargs).numpy()
    _matches(lambda F, c: F.fold(c, (4, 5), **kwargs), _normal(*columns.shape),
             name="Col2ImBackward0")
    one_channel = image[(slice(0, 1),) * (image.ndim - 2)]
    x = tapegrad.tensor(one_channel, requires_grad=True)
    assert gradgradcheck(lambda x: F.unfold(x, **kwargs) ** 2, (x,))
    c = tapegrad.tensor(F.unfold(x, **kwargs).detach().numpy(), requires_grad=True)
    assert gradgradcheck(lambda c: F.fold(c, (4, 5), **kwargs) ** 2, (c,))


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.unfold(x[0, 0], 2),
    lambda F, t, x: F.unfold(x[None], 2),
    lambda F, t, x: F.unfold(x, 5),
    lambda F, t, x: F.unfold(x, 2, stride=0),
    lambda F, t, x: F.unfold(x, 2, padding=-1),
    lambda F, t, x: F.unfold(x, 0),
    lambda F, t, x: F.unfold(x, 2, dilation=0),
    lambda F, t, x: F.fold(x[0, :, :3].reshape(1, 7, -1)[:, :, :6], (3, 4), 2),
    lambda F, t, x: F.fold(x[0, 0, :2, :5].reshape(1, 2, 5).repeat(1, 4, 1), (3, 4), 2),
    lambda F, t, x: F.fold(x, (3, 4), 2),
    lambda F, t, x: F.fold(x[0, 0].reshape(1, 4, 5)[..., :3].repeat(1, 2, 2), (1, 4), 2),
])
def test_unfold_fold_errors_match_pytorch(fn):
    _same_error(fn, _normal(1, 2, 3, 4))


def test_unfold_fold_modules():
    for make in (lambda m: m.Unfold(2), lambda m: m.Unfold((2, 3), dilation=2, padding=1,
                                                             stride=(1, 2)),
                 lambda m: m.Fold((3, 4), 2)):
        assert repr(make(nn)) == repr(make(torch.nn))
    image = tapegrad.arange(32.0).reshape(1, 2, 4, 4)
    patches = nn.Unfold(2, stride=2)(image)
    assert tapegrad.equal(nn.Fold((4, 4), 2, stride=2)(patches), image)


# ------------------------------------------------------------------------------ pixel shuffle

def test_pixel_shuffle_matches_pytorch():
    _matches(lambda F, x: F.pixel_shuffle(x, 2), _normal(2, 3, 8, 2, 3),
             name="PixelShuffleBackward0")
    _matches(lambda F, x: F.pixel_unshuffle(x, 3), _normal(2, 3, 6, 9),
             name="PixelUnshuffleBackward0")
    x = tapegrad.tensor(_normal(8, 2, 3), requires_grad=True)
    assert gradgradcheck(lambda x: F.pixel_shuffle(x, 2) ** 2, (x,))
    assert gradgradcheck(lambda x: F.pixel_unshuffle(x, 2) ** 2,
                         (tapegrad.tensor(_normal(2, 4, 2), requires_grad=True),))
    assert repr(nn.PixelShuffle(3)) == "PixelShuffle(upscale_factor=3)"
    assert repr(nn.PixelUnshuffle(2)) == "PixelUnshuffle(downscale_factor=2)"
    t = tapegrad.arange(16.0).view(1, 4, 2, 2)
    assert tapegrad.equal(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(t)), t)


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.pixel_shuffle(x[:, :3], 2),
    lambda F, t, x: F.pixel_shuffle(x[0, 0], 2),
    lambda F, t, x: F.pixel_shuffle(x, 0),
    lambda F, t, x: F.pixel_unshuffle(x[:, :, :3], 2),
    lambda F, t, x: F.pixel_unshuffle(x[:, :, :, :3], 2),
    lambda F, t, x: F.pixel_unshuffle(x[0, 0], 2),
    lambda F, t, x: F.pixel_unshuffle(x, -1),
])
def test_pixel_shuffle_errors_match_pytorch(fn):
    _same_error(fn, _normal(1, 4, 4, 4))


# ---------------------------------------------------------------------------- adaptive pools

def _distinct(*shape):
    """Values without ties, so that every maximum is unique."""
    return RNG.permutation(np.prod(shape)).reshape(shape) / 7.0


@pytest.mark.parametrize("size", [(2, 3), 3, (5, None), (4, 7), (1, 1), (6, 9)], ids=str)
def test_adaptive_pool2d_matches_pytorch(size):
    data = _distinct(2, 3, 5, 7)
    _matches(lambda F, x: F.adaptive_avg_pool2d(x, size), data)
    _matches(lambda F, x: F.adaptive_max_pool2d(x, size), data,
             name="AdaptiveMaxPool2DBackward0")
    values, indices = F.adaptive_max_pool2d(tapegrad.tensor(data), size, return_indices=True)
    expected = torch.nn.functional.adaptive_max_pool2d(torch.tensor(data), size,
                                                       return_indices=True)
    np.testing.assert_array_equal(indices.numpy(), expected[1].numpy())
    assert indices.dtype == tapegrad.int64


def test_adaptive_pool1d_matches_pytorch():
    data = _distinct(2, 3, 7)
    for size in (1, 3, (4,), 10):
        _matches(lambda F, x, size=size: F.adaptive_avg_pool1d(x, size), data,
                 name="SqueezeBackward1")
        _matches(lambda F, x, size=size: F.adaptive_max_pool1d(x, size), data,
                 name="SqueezeBackward1")
        _, indices = F.adaptive_max_pool1d(tapegrad.tensor(data[0]), size, return_indices=True)
        expected = torch.nn.functional.adaptive_max_pool1d(torch.tensor(data[0]), size, True)
        np.testing.assert_array_equal(indices.numpy(), expected[1].numpy())


def test_adaptive_pool_ties_and_gradcheck():
    ties = np.tile([[1.0, 3.0, 3.0], [3.0, 0.0, 3.0]], (1, 2, 2, 2))
    _matches(lambda F, x: F.adaptive_max_pool2d(x, (3, 4)), ties)
    x = tapegrad.tensor(_distinct(2, 4, 5), requires_grad=True)
    assert gradgradcheck(lambda x: F.adaptive_avg_pool2d(x, (3, 2)) ** 2, (x,))
    assert gradcheck(lambda x: F.adaptive_max_pool2d(x, (3, 2)), (x,))


def test_adaptive_pool_modules():
    for make in (lambda m: m.AdaptiveAvgPool1d(3), lambda m: m.AdaptiveMaxPool1d(3, True),
                 lambda m: m.AdaptiveMaxPool2d((2, None)), lambda m: m.AdaptiveAvgPool2d(1)):
        assert repr(make(nn)) == repr(make(torch.nn))
    pooled = nn.AdaptiveMaxPool2d(2, return_indices=True)(tapegrad.ones(1, 3, 3))
    assert [tuple(t.shape) for t in pooled] == [(1, 2, 2), (1, 2, 2)]


@pytest.mark.parametrize("fn", [
    lambda F, t, x: F.adaptive_avg_pool1d(x, 2),
    lambda F, t, x: F.adaptive_max_pool1d(x[0, 0, 0], 2),
    lambda F, t, x: F.adaptive_avg_pool1d(x[0], (2, 3)),
    lambda F, t, x: F.adaptive_max_pool2d(x[0, 0], 2),
    lambda F, t, x: F.adaptive_avg_pool2d(x[0, 0], 2),
    lambda F, t, x: F.adaptive_max_pool2d(x[0], (2, 3, 4)),
    lambda F, t, x: F.adaptive_max_pool2d(x[0], (2, -1)),
    lambda F, t, x: F.adaptive_max_pool2d(x[..., :0], 2),
])
def test_adaptive_pool_errors_match_pytorch(fn):
    _same_error(fn, _normal(1, 2, 5, 3))


# ---------------------------------------------------------------------------- max unpooling

@pytest.mark.parametrize("output_size", [None, (5, 5), [1, 2, 5, 4]], ids=str)
def test_max_unpool2d_matches_pytorch(output_size):
    data = _distinct(1, 1, 4, 4)
    _, indices = torch.nn.functional.max_pool2d(torch.tensor(data), 2, return_indices=True)
    pooled = torch.nn.functional.max_pool2d(torch.tensor(data), 2).numpy()
    _matches(lambda F, x, i: F.max_unpool2d(x, i, 2, output_size=output_size), pooled,
             indices.numpy(), name="MaxUnpool2DBackward0")
    x = tapegrad.tensor(pooled, requires_grad=True)
    assert gradgradcheck(lambda x: F.max_unpool2d(x, tapegrad.tensor(indices.numpy()), 2) ** 2,
                         (x,))


def test_max_unpool_after_max_pool_modules():
    pool = nn.MaxPool2d(2, stride=2, return_indices=True)
    image = tapegrad.arange(1.0, 17.0).view(1, 1, 4, 4)
    out, indices = pool(image)
    unpooled = nn.MaxUnpool2d(2, stride=2)(out, indices)
    expected = torch.nn.MaxUnpool2d(2, stride=2)(*torch.nn.MaxPool2d(2, return_indices=True)(
        torch.arange(1.0, 17.0).view(1, 1, 4, 4)))
    np.testing.assert_array_equal(unpooled.numpy(), expected.numpy())
    signal = _distinct(2, 3, 6)
    values, indices = torch.nn.functional.max_pool1d(torch.tensor(signal), 2, return_indices=True)
    _matches(lambda F, x, i: F.max_unpool1d(x, i, 2, output_size=[7]), values.numpy(),
             indices.numpy(), name="SqueezeBackward1")
    for make in (lambda m: m.MaxUnpool2d(2), lambda m: m.MaxUnpool2d((2, 3), stride=1, padding=1),
                 lambda m: m.MaxUnpool1d(2)):
        assert repr(make(nn)) == repr(make(torch.nn))


@pytest.mark.parametrize("fn", [
    lambda F, t, x, i: F.max_unpool2d(x, i, 2, output_size=(7, 7)),
    lambda F, t, x, i: F.max_unpool2d(x, i, 2, output_size=(5, 5, 5)),
    lambda F, t, x, i: F.max_unpool2d(x, i[:, :, :1], 2),
    lambda F, t, x, i: F.max_unpool2d(x, i.double(), 2),
    lambda F, t, x, i: F.max_unpool2d(x, i + 2, 2),  # one index past the 4x4 plane
    lambda F, t, x, i: F.max_unpool2d(x[0, 0], i[0, 0], 2),
])
def test_max_unpool_errors_match_pytorch(fn):
    _same_error(fn, _normal(1, 1, 2, 2), np.array([[[[0, 3], [9, 14]]]]))


def test_compiled_layers_match_eager(recwarn):
    """Every primitive of this family traced and compiled: same values, same gradients."""
    indices = tapegrad.tensor(np.array([[[[0, 3], [9, 14]]]]).repeat(4, 1))
    weight = tapegrad.tensor(_normal(2, 4, 3, 3), requires_grad=True)

    def run(x):
        y = F.conv_transpose2d(x, weight, stride=2, output_padding=1)  # (1, 4, 10, 10)
        y = F.pixel_shuffle(F.pixel_unshuffle(y, 2), 2)
        y = F.fold(F.unfold(F.adaptive_max_pool2d(y, 4), 2), (4, 4), 2)
        return F.adaptive_avg_pool2d(F.max_unpool2d(y[..., :2, :2], indices, 2), 3)

    x = tapegrad.tensor(_normal(1, 2, 4, 4), requires_grad=True)
    eager = run(x)
    eager.sum().backward()
    expected = (x.grad, weight.grad)
    x.grad = weight.grad = None
    compiled = tapegrad.compile(run)(x)
    compiled.sum().backward()
    np.testing.assert_allclose(compiled.detach().numpy(), eager.detach().numpy(), atol=1e-10)
    for got, want in zip((x.grad, weight.grad), expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-10)
    assert not [w for w in recwarn if "could not compile" in str(w.message)]
