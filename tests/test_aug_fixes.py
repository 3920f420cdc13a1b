"""Differences found by the augmentation / resizing programs (aug_*): ``F.interpolate`` rounded
as ATen's CPU kernels round, bit for bit in float32: the channels-last bilinear kernel (small
outputs, channels-last images, 3-channel images on one thread) and the generic separable one,
the bicubic coefficients and tap order, the antialiasing filters, the size shortcuts (an axis of
unchanged size copied by the linear kernels, the nearest kernels' ``nearest_idx``), and the
bilinear backward's accumulation order. Compared bitwise with PyTorch where installed; plus
independent truths (exact ramps, the backward as the forward's transpose) without it."""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _image(shape):
    """Values exactly representable in both libraries (no transcendental functions)."""
    n = int(np.prod(shape))
    return (((np.arange(n) * 37) % 101) / 100 + (np.arange(n) % 7) * 0.01).reshape(shape)


def _both(shape, channels_last=False):
    data = _image(shape).astype(np.float32)
    ours, theirs = tapegrad.tensor(data), torch.tensor(data)
    if channels_last:
        ours = ours.contiguous(memory_format=tapegrad.channels_last)
        theirs = theirs.contiguous(memory_format=torch.channels_last)
    return ours, theirs


def _assert_bitwise(ours, theirs):
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def _interpolate_both(shape, channels_last=False, **kwargs):
    ours, theirs = _both(shape, channels_last)
    _assert_bitwise(TF.interpolate(ours, **kwargs), F.interpolate(theirs, **kwargs))


def test_bilinear_align_corners_hits_grid_points_exactly():
    """On a ramp, outputs that land on input pixels are those pixels (ATen: 9.0, not 9.000001)."""
    x = tapegrad.arange(40, dtype=tapegrad.float32).view(1, 2, 4, 5)
    y = TF.interpolate(x, size=(6, 3), mode="bilinear", align_corners=True)
    assert y[0, 0, 0].tolist() == [0.0, 2.0, 4.0]
    assert y[0, 0, 5].tolist() == [15.0, 17.0, 19.0]


@needs_torch
@pytest.mark.parametrize("channels", [1, 2, 3, 5, 16, 17])
@pytest.mark.parametrize("size", [(6, 3), (9, 11), (3, 1), (70, 70)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_bilinear_bitwise(one_thread, channels, size, align_corners):
    _interpolate_both((1, channels, 4, 5), size=size, mode="bilinear",
                      align_corners=align_corners)


@needs_torch
@pytest.mark.parametrize("channels", [4, 17])
def test_bilinear_channels_last_bitwise(channels):
    _interpolate_both((2, channels, 7, 6), channels_last=True, size=(70, 70), mode="bilinear")


@needs_torch
@pytest.mark.parametrize("channels", [4, 17])
@pytest.mark.parametrize("align_corners", [False, True])
def test_trilinear_channels_last_bitwise(channels, align_corners):
    data = _image((2, channels, 3, 4, 5)).astype(np.float32)
    ours = tapegrad.tensor(data).contiguous(memory_format=tapegrad.channels_last_3d)
    theirs = torch.tensor(data).contiguous(memory_format=torch.channels_last_3d)
    kwargs = {"size": (5, 3, 7), "mode": "trilinear", "align_corners": align_corners}
    _assert_bitwise(TF.interpolate(ours, **kwargs), F.interpolate(theirs, **kwargs))


@needs_torch
@pytest.mark.parametrize("shape", [(1, 1, 4, 5), (1, 3, 7, 6), (2, 2, 2, 9)])
@pytest.mark.parametrize("size", [(6, 3), (9, 11), (2, 2), (70, 70)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_bicubic_bitwise(shape, size, align_corners):
    _interpolate_both(shape, size=size, mode="bicubic", align_corners=align_corners)


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("size", [(6, 3), (9, 11), (5, 13)])
def test_antialias_bitwise(mode, size):
    _interpolate_both((1, 1, 4, 5), size=size, mode=mode, antialias=True)


@needs_torch
@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_unchanged_size_with_a_scale_factor_1d(mode):
    """The linear kernel copies an axis whose size is kept, whatever the scale; the generic
    nearest kernel (all 1-d resizes) still scales its indices."""
    _interpolate_both((1, 1, 7), scale_factor=1.1, mode=mode)


@needs_torch
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "bilinear", "bicubic"])
@pytest.mark.parametrize("antialias", [False, True])
def test_unchanged_axis_with_a_scale_factor_2d(mode, antialias):
    if antialias and mode.startswith("nearest"):
        return
    _interpolate_both((1, 1, 3, 7), scale_factor=(1.3, 1.5), mode=mode, antialias=antialias)


@needs_torch
def test_unchanged_size_3d_nearest_scales():
    _interpolate_both((1, 1, 2, 3, 4), scale_factor=1.2, mode="nearest")
    _interpolate_both((1, 1, 2, 3, 4), scale_factor=1.2, mode="trilinear")


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_uint8_skips_unchanged_axes(mode):
    data = (np.arange(21).reshape(1, 1, 3, 7) * 10).astype(np.uint8)
    for scale in ((1.3, 1.5), (1.3, 1.1)):
        ours = TF.interpolate(tapegrad.tensor(data), scale_factor=scale, mode=mode)
        theirs = F.interpolate(torch.tensor(data), scale_factor=scale, mode=mode)
        _assert_bitwise(ours, theirs)


@needs_torch
def test_nearest_backward_takes_the_size_shortcut():
    """ATen's nearest backward copies an unchanged axis even where its forward scaled it."""
    grads = []
    for lib, functional in ((tapegrad, TF), (torch, F)):
        x = lib.arange(7.0).view(1, 1, 7).requires_grad_(True)
        functional.interpolate(x, scale_factor=1.1, mode="nearest").backward(
            lib.arange(7.0).view(1, 1, 7))
        grads.append(x.grad)
    _assert_bitwise(*grads)


@needs_torch
@pytest.mark.parametrize("shape", [(1, 1, 3, 4), (2, 3, 5, 3)])
@pytest.mark.parametrize("size", [(5, 9), (7, 3), (2, 2), (6, 8)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_bilinear_backward_bitwise(shape, size, align_corners):
    grads = []
    for lib, functional in ((tapegrad, TF), (torch, F)):
        x = lib.zeros(shape, requires_grad=True)
        y = functional.interpolate(x, size=size, mode="bilinear", align_corners=align_corners)
        y.backward(lib.tensor(_image(y.shape).astype(np.float32)))
        grads.append(x.grad)
    _assert_bitwise(*grads)


@pytest.mark.parametrize("spatial", [1, 2, 3])
def test_linear_backward_is_the_transpose(spatial):
    """<up(x), g> == <x, up^T(g)> in float64, for the rank-by-rank scatter of the backward."""
    mode = {1: "linear", 2: "bilinear", 3: "trilinear"}[spatial]
    shape, size = (2, 3) + (4, 3, 5)[:spatial], (7, 2, 6)[:spatial]
    x = tapegrad.tensor(_image(shape), dtype=tapegrad.float64, requires_grad=True)
    y = TF.interpolate(x, size=size, mode=mode, align_corners=False)
    g = tapegrad.tensor(_image(y.shape)[..., ::-1].copy(), dtype=tapegrad.float64)
    y.backward(g)
    np.testing.assert_allclose((y * g).sum().item(), (x * x.grad).sum().item(), rtol=1e-12)


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("size", [(1, 1), (3, 1), (2, 3)])
def test_antialias_backward_and_one_column_rows(mode, size):
    """ATen's antialiasing row pass, writing one contiguous column, repeats the first row's
    window (a PyTorch quirk reproduced); its backward is the plain transpose, bit for bit."""
    grads = []
    for lib, functional in ((tapegrad, TF), (torch, F)):
        x = lib.tensor(_image((2, 2, 7, 5)).astype(np.float32), requires_grad=True)
        y = functional.interpolate(x, size=size, mode=mode, antialias=True)
        y.backward(lib.tensor(_image(y.shape).astype(np.float32)))
        grads.append((y, x.grad))
    for ours, theirs in zip(*grads):
        _assert_bitwise(ours, theirs)


@needs_torch
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "linear", "bicubic"])
def test_backward_accumulation_order_bitwise(mode):
    """ATen's nearest/linear backward kernels add in output raster order (fused), its
    bicubic one in its own tap order without fusing: replayed exactly."""
    shape, size = ((1, 2, 7), (11,)) if mode == "linear" else ((1, 2, 5, 4), (9, 11))
    grads = []
    for lib, functional in ((tapegrad, TF), (torch, F)):
        x = lib.zeros(shape, requires_grad=True)
        y = functional.interpolate(x, size=size, mode=mode)
        y.backward(lib.tensor(_image(y.shape).astype(np.float32)))
        grads.append(x.grad)
    _assert_bitwise(*grads)


def _sampler_case(lib, functional, mode, padding_mode, align_corners, spatial, input_grad=True):
    shape = (2, 3, 4, 5) if spatial == 2 else (1, 2, 3, 4, 5)
    grid_shape = (2, 6, 9, 2) if spatial == 2 else (1, 2, 3, 4, 3)
    x = lib.tensor(_image(shape).astype(np.float32), requires_grad=input_grad)
    n = int(np.prod(grid_shape))
    coords = (((np.arange(n) * 29) % 97) / 40.0 - 1.2).reshape(grid_shape).astype(np.float32)
    grid = lib.tensor(coords, requires_grad=True)
    y = functional.grid_sample(x, grid, mode=mode, padding_mode=padding_mode,
                               align_corners=align_corners)
    y.backward(lib.tensor(_image(y.shape)[..., ::-1].copy().astype(np.float32)))
    return (y, x.grad, grid.grad) if input_grad else (y, grid.grad)


@needs_torch
@pytest.mark.parametrize("mode,spatial", [("bilinear", 2), ("bicubic", 2), ("nearest", 2),
                                          ("bilinear", 3)])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_forward_and_backward_bitwise(mode, spatial, padding_mode, align_corners):
    ours = _sampler_case(tapegrad, TF, mode, padding_mode, align_corners, spatial)
    theirs = _sampler_case(torch, F, mode, padding_mode, align_corners, spatial)
    for a, b in zip(ours, theirs):
        _assert_bitwise(a, b)


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_grid_gradient_without_input_gradient(mode, align_corners):
    """A spatial transformer's case (the image needs no gradient): ATen compiles that backward
    apart, its bicubic coefficients rounded differently."""
    ours = _sampler_case(tapegrad, TF, mode, "zeros", align_corners, 2, input_grad=False)
    theirs = _sampler_case(torch, F, mode, "zeros", align_corners, 2, input_grad=False)
    for a, b in zip(ours, theirs):
        _assert_bitwise(a, b)


@needs_torch
@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic"])
def test_half_resize_and_antialias_check(mode):
    """Half images resize in float32 with the kernels' stored weights (bicubic's in half);
    antialiasing refuses half, as ATen's kernel does."""
    data = _image((1, 2, 5, 6)).astype(np.float16)
    kwargs = {"size": (9, 11), "mode": mode}
    _assert_bitwise(TF.interpolate(tapegrad.tensor(data), **kwargs),
                    F.interpolate(torch.tensor(data), **kwargs))
    with pytest.raises(NotImplementedError, match="compute_index_ranges_weights"):
        TF.interpolate(tapegrad.tensor(data), size=(2, 2), mode="bilinear", antialias=True)


@needs_torch
@pytest.mark.parametrize("size", [(2, 3, 4, 5), (1, 1, 16, 16), (1, 2, 3, 4, 5)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_bitwise(size, align_corners):
    """The base grid as ATen's linspace rounds it; the small-batch matmul's own loop versus
    BLAS's fused one (the gradient compared where ATen's loop computes it), where this BLAS
    fuses (MKL did not on one AMD CPU): else within the error bound of a dot product."""
    k = len(size) - 2
    values = (((np.arange(size[0] * k * (k + 1)) * 7) % 11) / 10 - 0.5).astype(np.float32)
    outputs = []
    for lib, functional in ((tapegrad, TF), (torch, F)):
        theta = lib.tensor(values.reshape(size[0], k, k + 1), requires_grad=True)
        grid = functional.affine_grid(theta, size, align_corners=align_corners)
        grid.backward(lib.tensor(_image(grid.shape).astype(np.float32)))
        outputs.append((grid, theta.grad))
    points = int(np.prod(size[2:]))
    if k * (k + 1) * points < 400:
        _assert_bitwise(outputs[0][0], outputs[1][0])
        _assert_bitwise(outputs[0][1], outputs[1][1])
    elif _torch_bmm_fuses_in_turn(size[0], points, k + 1, k):
        _assert_bitwise(outputs[0][0], outputs[1][0])
    else:
        _assert_within_dot_product_bound(outputs[0][0], outputs[1][0], values, size,
                                         align_corners)


def _torch_bmm_fuses_in_turn(n, m, inner, k):
    """Whether PyTorch's ``bmm`` of affine_grid's operand shapes (theta transposed) adds the
    products in turn with fused multiply-adds. Entries of 16 significant bits in [1, 2): every
    sum is a multiple of 2**-30 below 2**4, exact in float64, so one rounding gives the fma."""
    rng = np.random.default_rng(0)
    left, theta = ((rng.integers(2 ** 15, 2 ** 16, shape) * rng.choice([-1, 1], shape) / 2 ** 15)
                   .astype(np.float32) for shape in ((n, m, inner), (n, k, inner)))
    total = (left[..., :1] * theta[:, None, :, 0]).astype(np.float32)
    for i in range(1, inner):
        total = (left[..., i:i + 1].astype(np.float64) * theta[:, None, :, i] + total)
        total = total.astype(np.float32)
    theirs = torch.bmm(torch.tensor(left), torch.tensor(theta).transpose(1, 2)).numpy()
    return np.array_equal(theirs, total)


def _assert_within_dot_product_bound(ours, theirs, values, size, align_corners):
    """Each point is a dot product of k + 1 terms, base grid (|x| <= 1, as PyTorch rounds it)
    times a theta row: in any order, fused or not, within gamma_(k+1) * sum|theta row| of the
    exact product (gamma_n = n u / (1 - n u), u = 2**-24), so the two within twice that."""
    k = len(size) - 2
    theta = values.reshape(size[0], k, k + 1).astype(np.float64)
    identity = torch.eye(k, k + 1).repeat(size[0], 1, 1)  # x * 1 + y * 0 + 0: exact
    base = F.affine_grid(identity, size, align_corners=align_corners).numpy().astype(np.float64)
    exact = (np.einsum("n...i,nji->n...j", base, theta[..., :k])
             + theta[..., k].reshape(size[0], *[1] * k, k))
    gamma = (k + 1) * 2.0 ** -24 / (1 - (k + 1) * 2.0 ** -24)
    bound = gamma * np.abs(theta).sum(-1).reshape(size[0], *[1] * k, k)
    ours, theirs = (t.detach().numpy().astype(np.float64) for t in (ours, theirs))
    assert np.all(np.abs(ours - exact) <= bound)
    assert np.all(np.abs(ours - theirs) <= 2 * bound)


def test_affine_grid_identity_is_the_base_grid():
    """An identity theta gives the pixel centres ``(2i + 1) / n - 1``, each a single rounding
    of the exact value for these sizes (linspace's steps are exact, then one division)."""
    theta = tapegrad.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    grid = TF.affine_grid(theta, (1, 1, 2, 5), align_corners=False)
    expected = [float(np.float32(v)) for v in (-0.8, -0.4, 0.0, 0.4, 0.8)]
    assert grid[0, 0, :, 0].tolist() == expected
    assert grid[0, :, 0, 1].tolist() == [-0.5, 0.5]
