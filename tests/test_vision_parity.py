"""Vision-code details against PyTorch: the memory layout of convolution, pooling and pixel
shuffle results and gradients under channels_last, uint8 image resizing, the dtypes the
resampling and averaging kernels refuse, area resizing of volumes, the rounding of linear
interpolation, and affine_grid's batch check; plus independent truths (finite differences,
constant images, hand-computed values) that run without PyTorch."""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck
from tapegrad.nn import functional as F

CL, CL3 = "channels_last", "channels_last_3d"


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _arange(lib, *shape, dtype=None):
    return lib.cos(lib.arange(int(np.prod(shape)), dtype=lib.float32) * 0.37).reshape(shape).to(
        dtype or lib.float32)


def _in(lib, tensor, format):
    return tensor.contiguous(memory_format=getattr(lib, format)) if format else tensor


def _strides(lib, case):
    """The strides of every tensor ``case(lib)`` returns (a tuple of tensors)."""
    return [t.stride() for t in case(lib)]


def _error(lib, case):
    try:
        case(lib)
    except Exception as error:  # noqa: BLE001  the error is what is compared
        return type(error).__name__, str(error)
    return None


# ------------------------------------------------------------------------ layouts

@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("x_format,w_format", [(None, None), (CL, None), (None, CL), (CL, CL)])
def test_convolution_layouts_follow_input_or_weight(torch, transposed, x_format, w_format):
    """Output and input gradient channels-last when the input or the weight is; the weight's
    gradient in the weight's own layout (2-d and 3-d)."""
    for spatial, cl in ((2, x_format), (3, x_format and CL3)):
        def case(lib):
            x = _in(lib, _arange(lib, 2, 4, *(5,) * spatial), cl).requires_grad_()
            w_shape = (4, 3) if transposed else (3, 4)
            w = _in(lib, _arange(lib, *w_shape, *(3,) * spatial), w_format and (
                CL if spatial == 2 else CL3)).requires_grad_()
            conv = getattr(lib.nn.functional,
                           f"conv{'_transpose' if transposed else ''}{spatial}d")
            y = conv(x, w, stride=2)
            return (y, *lib.autograd.grad(y, (x, w), lib.ones(y.shape)))
        assert _strides(tapegrad, case) == _strides(torch, case)


def test_convolution_on_channels_last_passes_gradcheck():
    x = tapegrad.randn(1, 2, 4, 4, dtype=tapegrad.float64).contiguous(
        memory_format=tapegrad.channels_last).requires_grad_()
    w = tapegrad.randn(2, 3, 3, 3, dtype=tapegrad.float64).contiguous(
        memory_format=tapegrad.channels_last).requires_grad_()
    assert gradcheck(lambda a, b: F.conv_transpose2d(a, b, stride=2, padding=1), (x, w))
    assert gradcheck(lambda a, b: F.conv2d(a, b.transpose(0, 1), padding=1), (x, w))


@pytest.mark.parametrize("op", ["shuffle", "unshuffle"])
def test_pixel_shuffle_keeps_channels_last(torch, op):
    def case(lib):
        x = _in(lib, _arange(lib, 2, 8, 4, 4), CL).requires_grad_()
        y = (lib.nn.functional.pixel_shuffle(x, 2) if op == "shuffle"
             else lib.nn.functional.pixel_unshuffle(x, 2))
        return (y, *lib.autograd.grad(y, x, _in(lib, lib.ones(y.shape), CL)))
    assert _strides(tapegrad, case) == _strides(torch, case)
    ours, plain = case(tapegrad)[0], (F.pixel_shuffle if op == "shuffle" else F.pixel_unshuffle)(
        _arange(tapegrad, 2, 8, 4, 4), 2)
    assert tapegrad.equal(ours, plain)


def _volume(lib, t):
    """A channels_last_3d (N, C, 4, H, W) volume repeating the planes of ``t``."""
    return t.unsqueeze(2).expand(-1, -1, 4, -1, -1).contiguous(
        memory_format=lib.channels_last_3d)


_POOLS = {
    "avg_padded": lambda lib, f, t: (f.avg_pool2d(t, 3, 2, 1),),
    "max_indices": lambda lib, f, t: f.max_pool2d(t, 2, return_indices=True),
    "adaptive_max": lambda lib, f, t: f.adaptive_max_pool2d(t, 3, return_indices=True),
    "adaptive_avg": lambda lib, f, t: (f.adaptive_avg_pool2d(t, 3),),
    "unpool": lambda lib, f, t: (f.max_unpool2d(*f.max_pool2d(t, 2, return_indices=True), 2,
                                                output_size=(7, 7)),),
    "fractional": lambda lib, f, t: (f.fractional_max_pool2d(t, 2, output_size=3),),
    "avg_3d": lambda lib, f, t: (f.avg_pool3d(_volume(lib, t), 2),),
    "adaptive_avg_3d": lambda lib, f, t: (f.adaptive_avg_pool3d(_volume(lib, t), 2),),
}


@pytest.mark.parametrize("name", sorted(_POOLS))
def test_pooling_layouts(torch, name):
    """2-d average, adaptive and unpooling kernels keep channels_last; the fractional and 3-d
    average/adaptive ones give contiguous results (values and input gradients)."""
    def case(lib):
        x = _in(lib, _arange(lib, 2, 4, 7, 7), CL).requires_grad_()
        outs = _POOLS[name](lib, lib.nn.functional, x)
        grad = lib.autograd.grad(outs[0], x, lib.ones(outs[0].shape))
        return (*outs, *grad)
    assert _strides(tapegrad, case) == _strides(torch, case)
    if name != "fractional":  # its windows are placed at random
        for ours, theirs in zip(case(tapegrad), case(torch)):
            np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5,
                                       atol=1e-7)


def test_avg_pool_backward_is_contiguous():
    x = tapegrad.ones(1, 1, 5, 5, requires_grad=True)
    (grad,) = tapegrad.autograd.grad(F.avg_pool2d(x, 3, 2, 1).sum(), x)
    assert grad.is_contiguous()
    assert grad[0, 0, 0, 0].item() == pytest.approx(1 / 9)


# ---------------------------------------------------------------------- uint8 resize

@pytest.mark.parametrize("mode,align_corners,antialias", [
    ("bilinear", False, False), ("bilinear", True, False), ("bicubic", False, False),
    ("bicubic", True, False), ("bilinear", False, True), ("bicubic", False, True)])
def test_uint8_resize_matches_torch(torch, mode, align_corners, antialias):
    """Fixed-point separable passes as ATen's uint8 kernels: within one level (bicubic)."""
    rng = np.random.default_rng(0)
    for size, out in [((5, 7), (9, 4)), ((3, 3), (8, 8)), ((8, 6), (3, 5))]:
        image = rng.integers(0, 256, (1, 3, *size)).astype(np.uint8)
        ours, theirs = (lib.nn.functional.interpolate(
            lib.tensor(image), size=out, mode=mode, align_corners=align_corners,
            antialias=antialias) for lib in (tapegrad, torch))
        assert ours.dtype == tapegrad.uint8
        difference = np.abs(ours.numpy().astype(int) - theirs.numpy().astype(int))
        assert difference.max() <= (1 if mode == "bicubic" and not antialias else 0)


def test_uint8_bilinear_values_and_constant_images():
    image = tapegrad.tensor([[[[0, 255], [128, 64]]]], dtype=tapegrad.uint8)
    resized = F.interpolate(image, size=3, mode="bilinear", align_corners=False)
    assert resized.tolist() == [[[[0, 128, 255], [64, 112, 160], [128, 96, 64]]]]
    flat = tapegrad.full((1, 1, 4, 5), 200, dtype=tapegrad.uint8)
    for mode in ("bilinear", "bicubic"):
        assert (F.interpolate(flat, size=(7, 3), mode=mode) == 200).all()


@pytest.mark.parametrize("dtype", ["int64", "int16", "bool", "uint8"])
@pytest.mark.parametrize("mode,spatial", [
    ("nearest", 1), ("nearest", 2), ("linear", 1), ("bilinear", 2), ("bicubic", 2),
    ("trilinear", 3), ("area", 2), ("area", 3)])
def test_integer_resize_errors(torch, dtype, mode, spatial):
    def case(lib):
        x = lib.ones(2, 3, *(4,) * spatial, dtype=getattr(lib, dtype))
        return lib.nn.functional.interpolate(x, size=(3,) * spatial, mode=mode)
    assert _error(tapegrad, case) == _error(torch, case)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool"])
def test_integer_average_pool_errors(torch, dtype):
    for case in (lambda lib: lib.nn.functional.avg_pool2d(lib.ones(1, 2, 4, 4, dtype=getattr(
                     lib, dtype)), 2),
                 lambda lib: lib.nn.functional.avg_pool2d(_in(lib, lib.ones(
                     1, 2, 4, 4, dtype=getattr(lib, dtype)), CL), 2),
                 lambda lib: lib.nn.functional.avg_pool3d(lib.ones(1, 2, 4, 4, 4, dtype=getattr(
                     lib, dtype)), 2),
                 lambda lib: lib.nn.functional.lp_pool2d(lib.ones(1, 2, 4, 4, dtype=getattr(
                     lib, dtype)), 2, 2),
                 lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(
                     1, 2, 4, 4, dtype=getattr(lib, dtype)), 2)):
        assert _error(tapegrad, case) == _error(torch, case)


# ------------------------------------------------------------------- float resampling

def test_area_resize_of_volumes(torch):
    def case(lib):
        x = _arange(lib, 2, 2, 4, 6, 5).requires_grad_()
        y = lib.nn.functional.interpolate(x, size=(2, 3, 2), mode="area")
        return y, lib.autograd.grad(y, x, _arange(lib, *y.shape))[0], y.grad_fn.name()
    ours, theirs = case(tapegrad), case(torch)
    for a, b in zip(ours[:2], theirs[:2]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5)
    assert ours[2] == theirs[2]
    x = _arange(tapegrad, 1, 1, 4, 4, 4)
    np.testing.assert_allclose(F.interpolate(x, size=1, mode="area").flatten().numpy(),
                               [x.mean().item()], rtol=1e-6)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("mode,spatial", [("linear", 1), ("trilinear", 3)])
def test_linear_interpolation_rounds_as_aten(torch, mode, spatial, align_corners):
    """Source positions and tap sums each rounded once (fused multiply-add): bit-identical."""
    rng = np.random.default_rng(1)
    for _ in range(10):
        data = (rng.standard_normal((1, 2, *rng.integers(2, 6, spatial))) * 3).astype(np.float32)
        size = tuple(int(n) for n in rng.integers(2, 9, spatial))
        ours, theirs = (lib.nn.functional.interpolate(lib.tensor(data), size=size, mode=mode,
                                                      align_corners=align_corners)
                        for lib in (tapegrad, torch))
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_affine_grid_batch_mismatch(torch):
    def case(lib):
        return lib.nn.functional.affine_grid(lib.zeros(2, 2, 3), (3, 1, 4, 4),
                                             align_corners=False)
    assert _error(tapegrad, case) == _error(torch, case)
    assert _error(tapegrad, case)[0] == "RuntimeError"


@pytest.mark.parametrize("input_dtype,grid_dtype", [
    ("float32", "float64"), ("float64", "float32"), ("int64", "float32"), ("uint8", "float32"),
    ("float32", "int64")])
@pytest.mark.parametrize("spatial", [2, 3])
def test_grid_sample_dtype_errors(torch, input_dtype, grid_dtype, spatial):
    def case(lib):
        x = lib.zeros(1, 1, *(3,) * spatial, dtype=getattr(lib, input_dtype))
        grid = lib.zeros(1, *(2,) * spatial, spatial, dtype=getattr(lib, grid_dtype))
        return lib.nn.functional.grid_sample(x, grid, align_corners=False)
    assert _error(tapegrad, case) == _error(torch, case)


# --------------------------------------------------------------------- batch norm layers

def _batch_norm_report(lib):
    nn = lib.nn
    x = _arange(lib, 2, 3, 2, 2)
    no_bias = nn.BatchNorm2d(3, bias=False)
    sync = nn.SyncBatchNorm(3, momentum=None)
    model = nn.Sequential(nn.Conv2d(3, 3, 1), nn.BatchNorm2d(3), nn.InstanceNorm2d(3),
                          nn.Sequential(nn.BatchNorm1d(3, affine=False, bias=False)))
    model[1].eval()
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    return (repr(no_bias), list(no_bias.state_dict()), no_bias(x).sum(dim=(0, 2, 3)).tolist(),
            repr(sync), sync(x.unsqueeze(-1)).shape, sync.num_batches_tracked.item(),
            repr(converted), converted[1].training, converted[1].weight is model[1].weight,
            converted[1].running_var is model[1].running_var,
            _error(lib, lambda lib: sync(lib.ones(3))),
            repr(nn.InstanceNorm2d(3, affine=True, bias=False)))


def test_batch_norm_bias_flag_and_sync_batch_norm(torch):
    ours, theirs = _batch_norm_report(tapegrad), _batch_norm_report(torch)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], atol=1e-5)
    assert ours[3:] == theirs[3:]


def test_sync_batch_norm_is_batch_norm_in_one_process():
    x = _arange(tapegrad, 4, 3, 5)
    sync, plain = tapegrad.nn.SyncBatchNorm(3), tapegrad.nn.BatchNorm1d(3)
    assert tapegrad.equal(sync(x), plain(x))
    assert tapegrad.equal(sync.running_var, plain.running_var)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("format", [CL, CL3])
def test_padding_keeps_channels_last(torch, mode, format):
    """So does a conv with padding_mode='reflect', which pads first."""
    def case(lib):
        shape = (2, 3, 4, 4) if format == CL else (2, 3, 4, 4, 4)
        x = _in(lib, _arange(lib, *shape), format).requires_grad_()
        pad = (1, 1, 2, 1, 1, 0)[:2 * (len(shape) - 2)]
        if mode == "constant":
            pad = (-1, *pad[1:])  # a crop too
        y = lib.nn.functional.pad(x, pad, mode=mode)
        return (y, *lib.autograd.grad(y, x, lib.ones(y.shape)))
    assert _strides(tapegrad, case) == _strides(torch, case)


def test_reflect_padded_conv_keeps_channels_last():
    conv = tapegrad.nn.Conv2d(3, 2, 3, padding=1, padding_mode="reflect")
    x = _in(tapegrad, _arange(tapegrad, 1, 3, 5, 5), CL)
    y = conv(x)
    assert y.is_contiguous(memory_format=tapegrad.channels_last) and not y.is_contiguous()
    assert tapegrad.allclose(y, conv(x.contiguous()), atol=1e-6)


def test_conv_module_padding_amounts(torch):
    def case(lib):
        nn = lib.nn
        return [nn.Conv2d(3, 4, 3, padding="valid")._reversed_padding_repeated_twice,
                nn.Conv2d(3, 4, (3, 4), padding="same", dilation=(1, 3))
                ._reversed_padding_repeated_twice,
                nn.Conv3d(1, 2, 3, padding=(1, 0, 2))._reversed_padding_repeated_twice,
                nn.ConvTranspose2d(3, 4, 2)._reversed_padding_repeated_twice]
    assert case(tapegrad) == case(torch)


def test_flip_keeps_the_layout_as_pytorch():
    torch = pytest.importorskip("torch")

    def strides(lib):
        image = lib.zeros(2, 3, 4, 5).contiguous(memory_format=lib.channels_last)
        return (image.flip(-1).stride(), image.flip(1).stride(),
                lib.zeros(3, 4).t().flip(0).stride(), lib.zeros(3, 4)[:, ::2].flip(0).stride())
    assert strides(tapegrad) == strides(torch)


def test_a_leafs_grad_takes_the_leafs_layout_as_pytorch():
    """AccumulateGrad's layout contract: a leaf dense in another order than C's (channels_last,
    a transpose) gets a .grad with its strides; others a C-contiguous one."""
    torch = pytest.importorskip("torch")

    def strides(lib):
        image = lib.zeros(2, 3, 4, 5).contiguous(memory_format=lib.channels_last)
        found = []
        for leaf in (image, lib.zeros(4, 3).t(), lib.zeros(4, 6)[:, ::2]):
            leaf = leaf.detach().requires_grad_()
            (leaf * 2).sum().backward()
            found.append(leaf.grad.stride())
        weight = lib.ones(4, 3, 3, 3).contiguous(memory_format=lib.channels_last).requires_grad_()
        lib.nn.functional.conv2d(image, weight).sum().backward()
        return found + [weight.grad.stride()]
    assert strides(tapegrad) == strides(torch)


def test_layer_norm_of_a_channels_last_image_is_contiguous_as_pytorchs():
    torch = pytest.importorskip("torch")

    def strides(lib):
        x = lib.ones(2, 3, 4, 5).contiguous(memory_format=lib.channels_last).requires_grad_()
        y = lib.nn.functional.layer_norm(x, (5,))
        return y.stride(), lib.autograd.grad(y.pow(2).sum(), x)[0].shape
    assert strides(tapegrad) == strides(torch)
