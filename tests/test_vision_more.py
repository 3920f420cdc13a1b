"""Vision odds and ends against PyTorch: layout functions' argument parsing, ``one_hot``'s dtype,
channels_last strides (size-1 dims, modules, clones, resampling), antialiased ``interpolate``,
BatchNorm fusion (``nn.utils.fusion``) and 3-D ``affine_grid``."""
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as G
from tapegrad import nn
from tapegrad.autograd import gradcheck

torch = pytest.importorskip("torch")
F = torch.nn.functional


def _both(array):
    return tapegrad.tensor(array), torch.tensor(array)


def _raises_same(ours, theirs):
    with pytest.raises(Exception) as expected:
        theirs()
    with pytest.raises(expected.type) as got:
        ours()
    assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------------------- layout functions

LAYOUT_CALLS = [
    "L.flip(x, dims=(1, 2))", "L.flip(input=x, dims=(2,))", "L.flip(x, [0])", "x.flip(dims=[2])",
    "x.flip(0, 1)", "x.flip((0, 1))", "x.flip(-1)", "L.roll(x, shifts=(1, -1), dims=(1, 2))",
    "x.roll(shifts=1, dims=0)", "L.roll(x, 2)", "L.rot90(x, k=1, dims=(1, 2))",
    "L.rot90(input=x)", "L.tile(x, dims=(2,))", "x.tile(2, 1)", "x.tile(dims=(2,))",
    "x.repeat(repeats=(2, 1, 1))", "x.repeat(2, 1, 1)", "L.repeat_interleave(input=x, repeats=2)",
]
LAYOUT_ERRORS = ["L.flip(x, 1)", "L.flip(x, 0, 1)", "x.flip()", "x.flip(dims=1)", "L.tile(x, 2)",
                 "L.roll(x, 1.5)", "L.flip(x, (0, 0))", "x.flip(5)"]


@pytest.mark.parametrize("call", LAYOUT_CALLS)
def test_layout_keywords_as_pytorch(call):
    data = np.arange(24.0).reshape(2, 3, 4)
    ours = eval(call, {"L": tapegrad, "x": tapegrad.tensor(data)})
    theirs = eval(call, {"L": torch, "x": torch.tensor(data)})
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("call", LAYOUT_ERRORS)
def test_layout_argument_errors_as_pytorch(call):
    data = np.arange(24.0).reshape(2, 3, 4)
    _raises_same(lambda: eval(call, {"L": tapegrad, "x": tapegrad.tensor(data)}),
                 lambda: eval(call, {"L": torch, "x": torch.tensor(data)}))


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int16", "float32"])
def test_one_hot_needs_int64(dtype):
    ours, theirs = _both(np.array([1, 0, 2], dtype=dtype))
    _raises_same(lambda: G.one_hot(ours, 3), lambda: F.one_hot(theirs, 3))


# ----------------------------------------------------------------------------- memory formats

@pytest.mark.parametrize("shape", [(1, 1, 4, 4), (2, 3, 1, 1), (1, 3, 4, 4), (4, 1, 2, 3),
                                   (2, 3, 4, 5), (1, 1, 1, 1)])
def test_channels_last_strides_with_unit_dims(shape):
    ours = tapegrad.zeros(shape).to(memory_format=tapegrad.channels_last)
    theirs = torch.zeros(shape).to(memory_format=torch.channels_last)
    assert ours.stride() == theirs.stride()
    for fmt in ("contiguous_format", "channels_last"):
        assert (ours.is_contiguous(memory_format=getattr(tapegrad, fmt))
                == theirs.is_contiguous(memory_format=getattr(torch, fmt)))
    assert ours.clone().stride() == theirs.clone().stride()
    assert ours.contiguous().stride() == theirs.contiguous().stride()


@pytest.mark.parametrize("make", [
    lambda L: L.tensor([[1., 2.], [3., 4.]]).expand(3, 2, 2),
    lambda L: L.zeros(3, 1, 4).expand(3, 5, 4),
    lambda L: L.zeros(2, 3, 4, 5).permute(0, 2, 3, 1),
    lambda L: L.zeros(2, 3, 4, 4).to(memory_format=L.channels_last)[:, :, :, :2],
    lambda L: L.zeros(4, 6)[:, ::2],
])
def test_clone_preserves_dense_strides_else_suggested_format(make):
    ours, theirs = make(tapegrad).clone(), make(torch).clone()
    assert ours.stride() == theirs.stride()
    assert ours.is_contiguous() == theirs.is_contiguous()


def test_module_to_channels_last_converts_4d_tensors_only():
    conv = nn.Conv2d(3, 4, 3)
    conv.weight.grad = tapegrad.ones_like(conv.weight)
    weight = conv.weight
    assert conv.to(memory_format=tapegrad.channels_last) is conv
    assert conv.weight is weight and conv.weight.stride() == (27, 1, 9, 3)
    assert conv.weight.grad.stride() == (27, 1, 9, 3) and conv.bias.stride() == (1,)
    conv.to(tapegrad.float64, memory_format=tapegrad.channels_last)
    assert conv.weight.dtype == tapegrad.float64 and conv.weight.stride() == (27, 1, 9, 3)
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        nn.Conv3d(2, 3, 2).to(memory_format=tapegrad.channels_last)


@pytest.mark.parametrize("mode, kwargs", [
    ("nearest", {}), ("bilinear", {}), ("bicubic", {}), ("nearest-exact", {}),
    ("bilinear", {"antialias": True}), ("bicubic", {"antialias": True})])
def test_interpolate_keeps_channels_last(mode, kwargs):
    data = np.arange(2 * 3 * 8 * 8, dtype=np.float32).reshape(2, 3, 8, 8)
    ours, theirs = (t.to(memory_format=L.channels_last) for t, L in zip(_both(data),
                                                                         (tapegrad, torch)))
    for scale in (2, 0.5):
        got = G.interpolate(ours, scale_factor=scale, mode=mode, **kwargs)
        want = F.interpolate(theirs, scale_factor=scale, mode=mode, **kwargs)
        assert got.stride() == want.stride()
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-4)


# --------------------------------------------------------------------- antialiased interpolate

AA_CASES = [((2, 3, 9, 11), {"size": (4, 5)}), ((1, 2, 37, 23), {"size": (5, 7)}),
            ((1, 1, 8, 8), {"scale_factor": 0.3}), ((1, 1, 8, 8), {"scale_factor": (0.5, 1.7)}),
            ((1, 2, 9, 11), {"size": (4, 5), "align_corners": True}),
            ((1, 1, 5, 6), {"size": (12, 13)}), ((1, 1, 100, 7), {"size": (3, 7)})]


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("shape, kwargs", AA_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_antialias_matches_pytorch(mode, shape, kwargs, dtype):
    data = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    ours, theirs = _both(data)
    ours.requires_grad_(), theirs.requires_grad_()
    got = G.interpolate(ours, mode=mode, antialias=True, **kwargs)
    want = F.interpolate(theirs, mode=mode, antialias=True, **kwargs)
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=tol, atol=tol)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    weights = np.cos(np.arange(got.numel())).reshape(got.shape).astype(dtype)
    (got * tapegrad.tensor(weights)).sum().backward()
    (want * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_antialias_gradcheck(mode):
    x = tapegrad.tensor(np.random.default_rng(1).standard_normal((1, 2, 7, 6)),
                        requires_grad=True)
    assert gradcheck(lambda t: G.interpolate(t, size=(3, 4), mode=mode, antialias=True), (x,))
    assert gradcheck(lambda t: G.interpolate(t, size=(9, 2), mode=mode, antialias=True), (x,))


@pytest.mark.parametrize("mode, shape", [("nearest", (1, 1, 4, 4)), ("area", (1, 1, 4, 4)),
                                         ("linear", (1, 1, 4)), ("trilinear", (1, 1, 4, 4, 4)),
                                         ("bilinear", (1, 1, 2, 4, 4))])
def test_antialias_unsupported_modes(mode, shape):
    ours, theirs = _both(np.zeros(shape, np.float32))
    _raises_same(lambda: G.interpolate(ours, scale_factor=0.5, mode=mode, antialias=True),
                 lambda: F.interpolate(theirs, scale_factor=0.5, mode=mode, antialias=True))


# ------------------------------------------------------------------------------------ fusion

def _copy_into_torch(ours, theirs):
    with torch.no_grad():
        for name, value in ours.state_dict().items():
            theirs.state_dict()[name].copy_(torch.tensor(value.numpy()))


def _trained_bn(L, bn, channels):
    bn.running_mean.copy_(L.linspace(-0.5, 0.7, channels))
    bn.running_var.copy_(L.linspace(0.3, 2.0, channels))
    if bn.weight is not None:
        with L.no_grad():
            bn.weight.copy_(L.linspace(0.5, 1.5, channels))
            bn.bias.copy_(L.linspace(-0.2, 0.3, channels))
    return bn.eval()


@pytest.mark.parametrize("layer, transpose, affine, bias", [
    ("Conv2d", False, True, True), ("Conv2d", False, False, False),
    ("ConvTranspose2d", True, True, True), ("Conv1d", False, True, False)])
def test_fuse_conv_bn_eval(layer, transpose, affine, bias):
    spatial = (6, 5) if layer.endswith("2d") else (7,)
    bn_name = "BatchNorm2d" if layer.endswith("2d") else "BatchNorm1d"
    modules = []
    for L in (tapegrad, torch):
        conv = getattr(L.nn, layer)(3, 4, 3, bias=bias).eval()
        modules.append((conv, _trained_bn(L, getattr(L.nn, bn_name)(4, affine=affine), 4)))
    (conv, bn), (tconv, tbn) = modules
    _copy_into_torch(conv, tconv)
    fused = nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
    want = torch.nn.utils.fusion.fuse_conv_bn_eval(tconv, tbn, transpose=transpose)
    assert fused is not conv and not fused.training and fused.weight is not conv.weight
    assert fused.weight.requires_grad == want.weight.requires_grad
    assert fused.bias.requires_grad == want.bias.requires_grad
    np.testing.assert_allclose(fused.weight.detach().numpy(), want.weight.detach().numpy(),
                               rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(fused.bias.detach().numpy(), want.bias.detach().numpy(),
                               rtol=1e-6, atol=1e-6)
    x = np.random.default_rng(2).standard_normal((2, 3, *spatial)).astype(np.float32)
    np.testing.assert_allclose(fused(tapegrad.tensor(x)).detach().numpy(),
                               bn(conv(tapegrad.tensor(x))).detach().numpy(), atol=1e-5)


def test_fuse_linear_bn_eval_and_errors():
    linear, bn = nn.Linear(5, 3).eval(), _trained_bn(tapegrad, nn.BatchNorm1d(3), 3)
    fused = nn.utils.fuse_linear_bn_eval(linear, bn)
    x = tapegrad.tensor(np.random.default_rng(3).standard_normal((4, 5)).astype(np.float32))
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(linear(x)).detach().numpy(),
                               atol=1e-5)
    weight, bias = nn.utils.fusion.fuse_linear_bn_weights(
        linear.weight, None, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    assert isinstance(bias, nn.Parameter) and not bias.requires_grad and weight.requires_grad
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        nn.utils.fuse_linear_bn_eval(nn.Linear(5, 3), bn)
    with pytest.raises(AssertionError, match="linear.out_features=3 and bn.num_features=2"):
        nn.utils.fuse_linear_bn_eval(linear, nn.BatchNorm1d(2).eval())
    with pytest.raises(AssertionError, match="must not be None"):
        nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 3, 1).eval(),
                                   nn.BatchNorm2d(3, track_running_stats=False).eval())


# ------------------------------------------------------------------------------- affine_grid

@pytest.mark.parametrize("size", [(2, 1, 2, 3, 4), (1, 3, 1, 1, 5), (1, 2, 5, 1, 3),
                                  (2, 1, 3, 4), (1, 1, 1, 4)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_matches_pytorch(size, align_corners):
    k = len(size) - 2
    ours, theirs = _both(np.random.default_rng(4).standard_normal((size[0], k, k + 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = G.affine_grid(ours, size, align_corners=align_corners)
        want = F.affine_grid(theirs, size, align_corners=align_corners)
    np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-12)


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_3d_gradcheck(align_corners):
    theta = tapegrad.tensor(np.random.default_rng(5).standard_normal((2, 3, 4)),
                            requires_grad=True)
    assert gradcheck(lambda t: G.affine_grid(t, (2, 1, 2, 3, 4), align_corners=align_corners),
                     (theta,))


@pytest.mark.parametrize("shape, size", [((2, 2, 3), (2, 1, 2, 3, 4)), ((2, 3, 4), (2, 1, 3, 4)),
                                         ((2, 3, 4), (2, 1, 2, 3, 4, 5))])
def test_affine_grid_errors(shape, size):
    ours, theirs = _both(np.zeros(shape, np.float32))
    _raises_same(lambda: G.affine_grid(ours, size, align_corners=False),
                 lambda: F.affine_grid(theirs, size, align_corners=False))
